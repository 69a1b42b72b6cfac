<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>QObject</name>
    <message numerus="yes">
        <source>%n model call(s)</source>
        <translation>
            <numerusform>%n model call</numerusform>
            <numerusform>%n model calls</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; (the %n priced call(s))</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; (the %n priced call)</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt; (the %n priced calls)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::AboutPlugins</name>
    <message numerus="yes">
        <source>%1 of %n plugin(s) loaded.</source>
        <translation>
            <numerusform>%1 of %n plugin loaded.</numerusform>
            <numerusform>%1 of %n plugins loaded.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::AnnotationLinks</name>
    <message numerus="yes">
        <source>Exported %n annotation(s) to %1</source>
        <translation>
            <numerusform>Exported %n annotation to %1</numerusform>
            <numerusform>Exported %n annotations to %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::CsvImportDialog</name>
    <message numerus="yes">
        <source>%n row(s), read as %1. Check what each column becomes, then Import.</source>
        <translation>
            <numerusform>%n row, read as %1. Check what each column becomes, then Import.</numerusform>
            <numerusform>%n rows, read as %1. Check what each column becomes, then Import.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::DatasetPane</name>
    <message numerus="yes">
        <source>Added %n example(s).</source>
        <translation>
            <numerusform>Added %n example.</numerusform>
            <numerusform>Added %n examples.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (v%2, %n example(s))</source>
        <translation>
            <numerusform>%1 (v%2, %n example)</numerusform>
            <numerusform>%1 (v%2, %n examples)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::DebugSession</name>
    <message numerus="yes">
        <source> (hit %n time(s))</source>
        <translation>
            <numerusform> (hit %n time)</numerusform>
            <numerusform> (hit %n times)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::EvalLinks</name>
    <message numerus="yes">
        <source>Added %1 of %n call(s) to the dataset (Save Version keeps them)</source>
        <translation>
            <numerusform>Added %1 of %n call to the dataset (Save Version keeps them)</numerusform>
            <numerusform>Added %1 of %n calls to the dataset (Save Version keeps them)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Running %1 over %n example(s)…</source>
        <translation>
            <numerusform>Running %1 over %n example…</numerusform>
            <numerusform>Running %1 over %n examples…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::FileController</name>
    <message numerus="yes">
        <source>%n recovery copies could not be read and were skipped: %1</source>
        <translation>
            <numerusform>%n recovery copy could not be read and was skipped: %1</numerusform>
            <numerusform>%n recovery copies could not be read and were skipped: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::FindBar</name>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n replaced</numerusform>
            <numerusform>%n replaced</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::FlameCanvas</name>
    <message numerus="yes">
        <source>%n bar(s)</source>
        <translation>
            <numerusform>%n bar</numerusform>
            <numerusform>%n bars</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es) the search</source>
        <translation>
            <numerusform>%n match the search</numerusform>
            <numerusform>%n matches the search</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::FlameView</name>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::GraphCanvas</name>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>%n node</numerusform>
            <numerusform>%n nodes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edge(s)</source>
        <translation>
            <numerusform>%n edge</numerusform>
            <numerusform>%n edges</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ran %n time(s)</source>
        <translation>
            <numerusform>Ran %n time</numerusform>
            <numerusform>Ran %n times</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::MemoryInspector</name>
    <message numerus="yes">
        <source>%1 %n memories? The journal keeps their history.</source>
        <translation>
            <numerusform>%1 %n memory? The journal keeps their history.</numerusform>
            <numerusform>%1 %n memories? The journal keeps their history.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::ModelSettingsDialog</name>
    <message numerus="yes">
        <source>Connected: %n model(s).</source>
        <translation>
            <numerusform>Connected: %n model.</numerusform>
            <numerusform>Connected: %n models.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::OtelReceive</name>
    <message numerus="yes">
        <source>Listening on %1 — %n run(s) received; pick one to show it.</source>
        <translation>
            <numerusform>Listening on %1 — %n run received; pick one to show it.</numerusform>
            <numerusform>Listening on %1 — %n runs received; pick one to show it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::OtelRunList</name>
    <message numerus="yes">
        <source>Session %1 — %n run(s)</source>
        <translation>
            <numerusform>Session %1 — %n run</numerusform>
            <numerusform>Session %1 — %n runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No run matches the filter. Clear it to see all %n run(s).</source>
        <translation>
            <numerusform>No run matches the filter. Clear it to see all %n run.</numerusform>
            <numerusform>No run matches the filter. Clear it to see all %n runs.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>%n run</numerusform>
            <numerusform>%n runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The run ended with %n error(s).</source>
        <translation>
            <numerusform>The run ended with %n error.</numerusform>
            <numerusform>The run ended with %n errors.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::PlaygroundPane</name>
    <message numerus="yes">
        <source>All %n Sets</source>
        <translation>
            <numerusform>The %n Set</numerusform>
            <numerusform>All %n Sets</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pasted %n row(s); the other inputs of the new rows are copied from the row above.</source>
        <translation>
            <numerusform>Pasted %n row; the other inputs of the new rows are copied from the row above.</numerusform>
            <numerusform>Pasted %n rows; the other inputs of the new rows are copied from the row above.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::PlaygroundSessions</name>
    <message numerus="yes">
        <source>%n variant(s), %1</source>
        <translation>
            <numerusform>%n variant, %1</numerusform>
            <numerusform>%n variants, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n input row(s)</source>
        <translation>
            <numerusform>%n input row</numerusform>
            <numerusform>%n input rows</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session file(s) could not be read</source>
        <translation>
            <numerusform>%n session file could not be read</numerusform>
            <numerusform>%n session files could not be read</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::RunsLinks</name>
    <message numerus="yes">
        <source>Prompt log %1: %n run(s); pick one to read its calls</source>
        <translation>
            <numerusform>Prompt log %1: %n run; pick one to read its calls</numerusform>
            <numerusform>Prompt log %1: %n runs; pick one to read its calls</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::ShapeSource</name>
    <message numerus="yes">
        <source>%n model call(s)</source>
        <translation>
            <numerusform>%n model call</numerusform>
            <numerusform>%n model calls</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool call(s)</source>
        <translation>
            <numerusform>%n tool call</numerusform>
            <numerusform>%n tool calls</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n failed</numerusform>
            <numerusform>%n failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::StartPage</name>
    <message numerus="yes">
        <source>Ollama is running with %n model(s): %1. Programs use them as ollama/NAME.</source>
        <translation>
            <numerusform>Ollama is running with %n model: %1. Programs use them as ollama/NAME.</numerusform>
            <numerusform>Ollama is running with %n models: %1. Programs use them as ollama/NAME.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Connected: %n model(s) answered: %1.</source>
        <translation>
            <numerusform>Connected: %n model answered: %1.</numerusform>
            <numerusform>Connected: %n models answered: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2): %n model(s): %3</source>
        <translation>
            <numerusform>%1 (%2): %n model: %3</numerusform>
            <numerusform>%1 (%2): %n models: %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::TraceDocks</name>
    <message numerus="yes">
        <source>%1: %n run(s); pick one to show it</source>
        <translation>
            <numerusform>%1: %n run; pick one to show it</numerusform>
            <numerusform>%1: %n runs; pick one to show it</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::TraceLoadBar</name>
    <message numerus="yes">
        <source>Showing the first %n block(s) of %1; reading the rest…</source>
        <translation>
            <numerusform>Showing the first %n block of %1; reading the rest…</numerusform><numerusform>Showing the first %n blocks of %1; reading the rest…</numerusform></translation>
    </message>
</context>
<context>
    <name>hako::TraceTimelineView</name>
    <message numerus="yes">
        <source>%n block(s), %1</source>
        <translation>
            <numerusform>%n block, %1</numerusform>
            <numerusform>%n blocks, %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::TraceTreeView</name>
    <message numerus="yes">
        <source>No block matches (%n blocks).</source>
        <translation>
            <numerusform>No block matches (%n block).</numerusform>
            <numerusform>No block matches (%n blocks).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n blocks match (shown with the blocks around them). Clear the search to see every block.</source>
        <translation>
            <numerusform>%1 of %n block matches (shown with the blocks around it). Clear the search to see every block.</numerusform>
            <numerusform>%1 of %n blocks match (shown with the blocks around them). Clear the search to see every block.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::VariablesView</name>
    <message numerus="yes">
        <source>&lt;b&gt;%n variable(s)&lt;/b&gt; at %1&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</source>
        <translation>
            <numerusform>&lt;b&gt;%n variable&lt;/b&gt; at %1&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</numerusform>
            <numerusform>&lt;b&gt;%n variables&lt;/b&gt; at %1&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::playground::InputTable</name>
    <message numerus="yes">
        <source>a list of %n item(s)</source>
        <translation>
            <numerusform>a list of %n item</numerusform>
            <numerusform>a list of %n items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>a record of %n field(s)</source>
        <translation>
            <numerusform>a record of %n field</numerusform>
            <numerusform>a record of %n fields</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>text (%n character(s)); write ["a", "b"] for a list</source>
        <translation>
            <numerusform>text (%n character); write ["a", "b"] for a list</numerusform>
            <numerusform>text (%n characters); write ["a", "b"] for a list</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::BoxView</name>
    <message numerus="yes">
        <source>%n block(s) drawn</source>
        <translation>
            <numerusform>%n block drawn</numerusform>
            <numerusform>%n blocks drawn</numerusform>
        </translation>
    </message>
</context>
</TS>