<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>QObject</name>
    <message>
        <source>kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>def</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;no location in this trace — the Source tab rebuilds it from the trace&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contribute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;nothing&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — stopped by the user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>children</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;defaults&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 completion tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages sent (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stdout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stderr</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluated fields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;no result recorded&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory store</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako</name>
    <message>
        <source>model output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contributes nothing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::AboutPlugins</name>
    <message>
        <source>About plugins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No plugins were found. Hako looks in HAKO_PLUGIN_PATH and in lib/hako/plugins beside the program.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n plugin(s) loaded.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Plugin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Description</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::BoxPainter</name>
    <message>
        <source>… 1 more iteration — click to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… %1 more iterations — click to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contributes nothing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::BoxView</name>
    <message>
        <source>Trace boxes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Legend of block kinds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trace yet: run a program or open a trace file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show All Iterations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Structure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy Full Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Legend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 hidden iteration; click to show it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 hidden iterations; click to show them all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1, column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contributes nothing</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::ConsolePane</name>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End Input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program output appears here. Run a program with F5.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program input (several lines)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a line and press Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the input; Ctrl+Enter sends it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer with end of input (Ctrl+D)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[end of input]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>▶ Running %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>■ Finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>■ Stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>■ Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::DocumentPane</name>
    <message>
        <source>search 白鳥 停車場 · show 181-182 · rank query · answer text   (Enter to run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost: 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paragraphs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What search results and show numbers refer to: lines as in the file, or sentences/paragraphs cut to at most 200 characters (for texts with very long lines)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ruby</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Aozora Bunko ruby as small readings above the text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed: the seed game&apos;s exact output (first 20 characters of each hit). Context: a snippet around the first match, every term bold, the true page and hit counts, and suggestions when nothing matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the session&apos;s transcript as JSON or Markdown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transcript as JSON…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transcript as Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document hits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document indexing progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document units</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document output mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show ruby</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Units:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No document is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Transcript</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Indexing %1%… &quot;%2&quot; runs when the index is ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::EditorPane</name>
    <message>
        <source>untitled.pdl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The program has no file name yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recovery store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 no longer exists; the recovered text is unsaved</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::FileController</name>
    <message>
        <source>Unsaved Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the changes to “%1” before closing it?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Programs, traces, documents and memory stores (*.pdl *.yaml *.yml *.json *.txt *.md *.pdf *.hakomem);;PDL programs (*.pdl *.yaml *.yml);;Traces (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trace&apos;s program %1 was not opened: the editor has unsaved changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Program As</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDL programs (*.pdl *.yaml *.yml);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This example needs a model. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run without a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Need a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No examples installed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untitled program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to recover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restored unsaved changes from %1. Save to keep them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an untitled program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore Unsaved Programs?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hako was closed without saving:

%1

Restore the unsaved changes? (Others stay under File › Recover Unsaved.)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::FindBar</name>
    <message>
        <source>Match case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regular expression</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find previous (Shift+F3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find next (F3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close (Escape)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close the find bar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replace All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::LogLinks</name>
    <message>
        <source>The trace of this run was not kept (the workbench keeps its own runs&apos; traces; `hako run --trace FILE` writes one)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::MainWindow</name>
    <message>
        <source>Line and column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line endings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompt log: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ln %1, Col %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems (%1 errors, %2 warnings)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Document…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Trace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Traces (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recover &amp;Unsaved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R&amp;eplace…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Toggle &amp;Comment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model Endpoints…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About &amp;Plugins</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Hako</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Hako</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Hako %1&lt;/h3&gt;&lt;p&gt;A workbench for prompt programs written in the Prompt Declaration Language (PDL).&lt;/p&gt;&lt;p&gt;Built with Qt %2 and QScintilla.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::MemoryHistoryView</name>
    <message>
        <source>Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seq</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert to before this change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a memory to see its history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Memory %1&lt;/b&gt; · %2 · %3 · importance %4 (%5) · version %6&lt;br&gt;%7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>broken link: no such memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[deleted] %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trace node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; by %2 at %3 — %4&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert memory %1 to what it was before change #%2 (%3)?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::MemoryInspector</name>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open store…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search text…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Similar to… (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memories similar to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All states</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Minimum importance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>importance ≥ </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Archive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memories</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrievals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>History &amp;&amp; provenance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open memory store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory stores (*.hakomem *.sqlite *.db);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This store has no embeddings to search.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model provider for &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This memory store is damaged (SQLite&apos;s quick check: %1). It is open read-only: browse it and export what can be read, then import the export into a new store.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You may only read this memory store: it is open read-only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 %n memories? The journal keeps their history.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Memory %1 is hidden by the current filter.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::MemoryTimelineView</name>
    <message>
        <source>No memories yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reflection threshold %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>   ● created   | accessed   ▲ reflection</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::MessageBar</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message action</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::ModelFailure</name>
    <message>
        <source>Line %1: Hako could not get a reply from the model. Check the model settings. Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::ModelSettingsDialog</name>
    <message>
        <source>Model settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — fix the file by hand; saving is disabled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Programs that say `model: default` use this model; the examples do. Empty: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used by programs that say &lt;code&gt;model: default&lt;/code&gt; (the examples do).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model names sent to an endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model name in programs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model on the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A name (or a glob such as vllm/*) that programs use, the endpoint it goes to, and the name that server knows (empty: the same name, without a prefix ending in /*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map a name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove mapping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoint name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models the endpoint serves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Map a model name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (built in)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set by an environment variable (see the README, &quot;Connecting a model&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key will be removed from the desktop keyring on Save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new key will be stored in the desktop keyring on Save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A key is stored in the desktop keyring.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key comes from the environment variable %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No key (none is needed for Ollama and most local servers).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(stored in the keyring)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No base URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking %1 …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Connected: %n model(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The key of %1 was not stored: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::NodeDetailView</name>
    <message>
        <source>Block summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result as a tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show source rebuilt from the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block trace JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;Select a block in the trace to see its details.&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;No trace. Run a program or open a trace file.&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> &lt;i&gt;running…&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> &lt;i&gt;stopped&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> &amp;nbsp;&lt;span style=&apos;color:%1&apos;&gt;&lt;b&gt;failed&lt;/b&gt;&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing the first %1 of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing the first %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, lines %2–%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This trace has no source location for the block. </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebuilt from the trace: expressions appear with the values they had.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The node&apos;s JSON cannot be shown: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 characters%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; lines longer than 4,000 characters are shown broken</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::PdlEditor</name>
    <message>
        <source>Program editor</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::PdlLexer</name>
    <message>
        <source>Default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mapping key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Common field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quoted string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number or constant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expression</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expression delimiter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YAML punctuation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block scalar text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document marker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template comment</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::ProblemsView</name>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::PromptLogPane</name>
    <message>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search messages and replies…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every word (or &quot;quoted phrase&quot;) must occur in the messages or the reply; ignores ASCII case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompt&apos;s name; * matches any run of characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s name; * matches any run of characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags a call must all carry, separated by spaces or commas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only calls started within this time; the charts and the tokens over time cover it (any time: the last 30 days)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the tags the calls must carry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags in the log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh prompt log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List the calls again (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt log status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a call to see its messages, reply and usage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in &amp;Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the run&apos;s trace at this call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show &amp;Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the program at the model block that made this call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in &amp;Playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in Playground</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit this call&apos;s messages and parameters, switch the model and run it again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group statistics by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By day (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call statistics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Group:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens (in + out)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt log views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompt log cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Showing newest %1 of %2 calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 calls match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model calls logged yet. Run a program that calls a model; every call appears here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No calls match the filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This call cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No tags in the log yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>5 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only this call&apos;s metadata was kept (privacy rules): no messages or reply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cached tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First token after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finish reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retries</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::RetrievalView</name>
    <message>
        <source>Retrievals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrieval candidates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrieval mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number of memories (k)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recency decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>k</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What if…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-run this retrieval with these parameters without touching the store</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no query)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Made by trace node %1 (run %2); click to select it in the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 candidates, %2 in the prompt%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (approximate index)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What-if: added %1; removed %2; moved %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::RunActions</name>
    <message>
        <source>&amp;Run Program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the program in the editor (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;Trace As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Traces (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Code Blocks in a &amp;Sandbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run python and command blocks under bubblewrap: no network, read-only files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &amp;Tags…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags the prompt log gives the model calls of this window&apos;s runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags for the model calls of the next runs, separated by spaces or commas
(for example prompt:summary env:test). The Prompt Log filters by them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Forget Trusted Folders</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Programs will ask again before running code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs are not tagged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs are tagged %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The prompt log: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configure models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1, column %2: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no run whose trace could be saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the trace to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved trace %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::RunController</name>
    <message>
        <source>the program could not be read</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::ThreadView</name>
    <message>
        <source>Open thread…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a reply-tree file (JSON) to see a context&apos;s boundary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thread messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Author</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open thread</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 messages. Select one to see the context a reply to it gets.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context of %1: %2 of %3 messages (%4); the rest, sibling branches included, stays out of the prompt.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::TimeChart</name>
    <message>
        <source>No calls in this time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Highest %1 (%2); %3 of %4 periods have calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>up to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::TimelineCanvas</name>
    <message>
        <source>This trace has no timing (pdl__timing).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trace.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::TraceDocks</name>
    <message>
        <source>Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace Tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened trace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace — run of %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::TraceLoadBar</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop loading; the trace shown before stays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1 was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::TraceTimelineView</name>
    <message>
        <source>Rows: tree order</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows: depth</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One block per row in tree order, or one row per nesting level</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline of blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom out (−, Ctrl+wheel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zoom in (+, Ctrl+wheel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the whole run (0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n block(s), %1</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::TraceTreeView</name>
    <message>
        <source>Search blocks (text, kind:model, def:name, failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block kind filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only blocks of this kind (and the blocks that contain them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No block matches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Filter on: showing the blocks of %n that match (and the blocks around them). Clear the search to see every block.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::TrustDialog</name>
    <message>
        <source>Run Code?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This program</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 comes from a folder you have not trusted and would run:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;ul&gt;%1&lt;/ul&gt;&lt;p&gt;Run it only if you trust where it comes from. Trusting the folder %2 lets every program in it run without asking.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust Folder and Run</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::VariablesView</name>
    <message>
        <source>Filter variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variables in scope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;Select a block to see the variables in scope there.&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;i&gt;No trace.&lt;/i&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rebuilt from the trace: earlier definitions and loop variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as captured by the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n variable(s)&lt;/b&gt; at %1&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::docs::TranscriptModel</name>
    <message>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::memory::CandidateModel</name>
    <message>
        <source>added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>moved %1 → %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recency %1 (raw %2, %3 h since access)
importance %4 (raw %5)
relevance %6 (cosine %7)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(memory %1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::pdl::TraceModel</name>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::pdl::ValueTreeModel</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::promptlog</name>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::promptlog::CallTableModel</name>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>hako::promptlog::StatsTableModel</name>
    <message>
        <source>No calls in this time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per %1, oldest to newest; the highest: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no tags)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Day (UTC)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens Out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p50</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>p95</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens over time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens per %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
