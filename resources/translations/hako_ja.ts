<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja">
<context>
    <name>QObject</name>
    <message>
        <source>kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>def</source>
        <translation>def</translation>
    </message>
    <message>
        <source>id</source>
        <translation>id</translation>
    </message>
    <message>
        <source>description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>in</source>
        <translation>親ブロック</translation>
    </message>
    <message>
        <source>source</source>
        <translation>ソース</translation>
    </message>
    <message>
        <source>&lt;i&gt;no location in this trace — the Source tab rebuilds it from the trace&lt;/i&gt;</source>
        <translation>&lt;i&gt;このトレースには位置情報がありません — ［ソース］タブでトレースから再構成します&lt;/i&gt;</translation>
    </message>
    <message>
        <source>contribute</source>
        <translation>contribute</translation>
    </message>
    <message>
        <source>&lt;i&gt;nothing&lt;/i&gt;</source>
        <translation>&lt;i&gt;なし&lt;/i&gt;</translation>
    </message>
    <message>
        <source> — running</source>
        <translation> — 実行中</translation>
    </message>
    <message>
        <source> — stopped by the user</source>
        <translation> — ユーザーが停止</translation>
    </message>
    <message>
        <source>time</source>
        <translation>時間</translation>
    </message>
    <message>
        <source>children</source>
        <translation>子ブロック</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>パラメーター</translation>
    </message>
    <message>
        <source>&lt;i&gt;defaults&lt;/i&gt;</source>
        <translation>&lt;i&gt;既定値&lt;/i&gt;</translation>
    </message>
    <message>
        <source>%1 prompt</source>
        <translation>プロンプト %1</translation>
    </message>
    <message>
        <source>%1 completion tokens</source>
        <translation>補完 %1 トークン</translation>
    </message>
    <message>
        <source>usage</source>
        <translation>使用量</translation>
    </message>
    <message>
        <source>speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 トークン/秒</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Messages sent (%1)</source>
        <translation>送信したメッセージ (%1)</translation>
    </message>
    <message>
        <source>from</source>
        <translation>定義元</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <source>stdout</source>
        <translation>標準出力</translation>
    </message>
    <message>
        <source>stderr</source>
        <translation>標準エラー出力</translation>
    </message>
    <message>
        <source>Evaluated fields</source>
        <translation>評価されたフィールド</translation>
    </message>
    <message>
        <source>Output so far</source>
        <translation>ここまでの出力</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>&lt;i&gt;no result recorded&lt;/i&gt;</source>
        <translation>&lt;i&gt;結果は記録されていません&lt;/i&gt;</translation>
    </message>
    <message>
        <source>program</source>
        <translation>プログラム</translation>
    </message>
    <message>
        <source>trace</source>
        <translation>トレース</translation>
    </message>
    <message>
        <source>document</source>
        <translation>文書</translation>
    </message>
    <message>
        <source>memory store</source>
        <translation>メモリストア</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;i&gt;… %1 more characters (see the Result tab)&lt;/i&gt;</source>
        <translation>&lt;br&gt;&lt;i&gt;… 残り %1 文字（［結果］タブを参照）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（既定）</translation>
    </message>
    <message>
        <source>no model block at line %1, column %2</source>
        <translation>%1 行 %2 列に model ブロックがありません</translation>
    </message>
    <message>
        <source>the block's parameters are an expression; the playground edits a parameters mapping</source>
        <translation>このブロックの parameters は式です。プレイグラウンドで編集できるのは parameters のマッピングだけです</translation>
    </message>
    <message>
        <source>the block's input is not a text or a list of {role, content} messages</source>
        <translation>このブロックの input はテキストでも {role, content} メッセージのリストでもありません</translation>
    </message>
    <message>
        <source>cannot remove the parameter %1 written on the line of another key; remove it in the editor</source>
        <translation>別のキーと同じ行に書かれたパラメーター %1 は削除できません。エディターで削除してください</translation>
    </message>
    <message>
        <source>the block's parameters are an expression; edit them in the editor</source>
        <translation>このブロックの parameters は式です。エディターで編集してください</translation>
    </message>
    <message>
        <source>cannot remove messages written on one line; remove them in the editor</source>
        <translation>1 行に書かれたメッセージは削除できません。エディターで削除してください</translation>
    </message>
    <message>
        <source>internal error: overlapping edits at %1+%2 and %3+%4</source>
        <translation>内部エラー: 編集箇所が重なっています（%1+%2 と %3+%4）</translation>
    </message>
    <message numerus="yes">
        <source>%n model call(s)</source>
        <translation>
            <numerusform>モデル呼び出し %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 prompt + %2 completion = &lt;b&gt;%3 tokens&lt;/b&gt;</source>
        <translation>プロンプト %1 + 応答 %2 = &lt;b&gt;%3 トークン&lt;/b&gt;</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt; (the %n priced call(s))</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;(料金の分かる呼び出し %n 件)</numerusform>
        </translation>
    </message>
    <message>
        <source>span</source>
        <translation>スパン</translation>
    </message>
    <message>
        <source>shown as %1</source>
        <translation>%1 として表示</translation>
    </message>
    <message>
        <source>total</source>
        <translation>合計</translation>
    </message>
    <message>
        <source>notebook</source>
        <translation>ノートブック</translation>
    </message>
    <message>
        <source>Scores</source>
        <translation>評価</translation>
    </message>
    <message>
        <source>a person</source>
        <translation>人</translation>
    </message>
    <message>
        <source>online evaluation</source>
        <translation>オンライン評価</translation>
    </message>
    <message>
        <source>an experiment</source>
        <translation>実験</translation>
    </message>
    <message>
        <source>sent to</source>
        <translation>送信先のモデル</translation>
    </message>
    <message>
        <source>answered by</source>
        <translation>応答したモデル</translation>
    </message>
</context>
<context>
    <name>QsciScintilla</name>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直し(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>切り取り(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>コピー(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>貼り付け(&amp;P)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>すべて選択</translation>
    </message>
</context>
<context>
    <name>hako</name>
    <message>
        <source>model output</source>
        <translation>モデルの出力</translation>
    </message>
    <message>
        <source>contributes nothing</source>
        <translation>出力に寄与しない</translation>
    </message>
</context>
<context>
    <name>hako::AboutPlugins</name>
    <message>
        <source>About plugins</source>
        <translation>プラグインについて</translation>
    </message>
    <message>
        <source>No plugins were found. Hako looks in HAKO_PLUGIN_PATH and in lib/hako/plugins beside the program.</source>
        <translation>プラグインが見つかりません。Hako は HAKO_PLUGIN_PATH と、プログラムと同じ場所の lib/hako/plugins を探します。</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n plugin(s) loaded.</source>
        <translation>
            <numerusform>%n 個のプラグインのうち %1 個を読み込みました。</numerusform>
        </translation>
    </message>
    <message>
        <source>Plugin</source>
        <translation>プラグイン</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>バージョン</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>loaded</source>
        <translation>読み込み済み</translation>
    </message>
    <message>
        <source>not loaded</source>
        <translation>未読み込み</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Load error</source>
        <translation>読み込みエラー</translation>
    </message>
</context>
<context>
    <name>hako::AccessibleParts</name>
    <message>
        <source>Clear</source>
        <translation>クリア</translation>
    </message>
    <message>
        <source>Select All</source>
        <translation>すべて選択</translation>
    </message>
    <message>
        <source>More Menus</source>
        <translation>ほかのメニュー</translation>
    </message>
    <message>
        <source>More Tools</source>
        <translation>ほかのツール</translation>
    </message>
</context>
<context>
    <name>hako::AnnotationDialog</name>
    <message>
        <source>Annotate %1</source>
        <translation>%1 に注釈を付ける</translation>
    </message>
    <message>
        <source>Annotate block</source>
        <translation>ブロックに注釈を付ける</translation>
    </message>
    <message>
        <source>Thumbs up</source>
        <translation>高評価</translation>
    </message>
    <message>
        <source>Thumbs down</source>
        <translation>低評価</translation>
    </message>
    <message>
        <source>This block did well</source>
        <translation>このブロックはうまくいきました</translation>
    </message>
    <message>
        <source>This block went wrong</source>
        <translation>このブロックは失敗しました</translation>
    </message>
    <message>
        <source>Score or label</source>
        <translation>スコアまたはラベル</translation>
    </message>
    <message>
        <source>A number (0.8) or a label; leave empty to score with the thumbs</source>
        <translation>数値（0.8）またはラベル。👍/👎 で評価するときは空のままにします</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>メモ</translation>
    </message>
    <message>
        <source>What was wrong, or the answer it should have given</source>
        <translation>何が間違っていたか、または返すべきだった答え</translation>
    </message>
    <message>
        <source>Thumbs:</source>
        <translation>評価:</translation>
    </message>
    <message>
        <source>Score or label:</source>
        <translation>スコアまたはラベル:</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>メモ:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Save annotation</source>
        <translation>注釈を保存</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Remove annotation</source>
        <translation>注釈を削除</translation>
    </message>
    <message>
        <source>✓ Good</source>
        <translation>✓ 良い</translation>
    </message>
    <message>
        <source>✗ Bad</source>
        <translation>✗ 悪い</translation>
    </message>
</context>
<context>
    <name>hako::AnnotationLinks</name>
    <message>
        <source>Annotate…</source>
        <translation>注釈を付ける…</translation>
    </message>
    <message>
        <source>Add Annotated Call to Dataset</source>
        <translation>注釈付きの呼び出しをデータセットに追加</translation>
    </message>
    <message>
        <source>Export Annotations…</source>
        <translation>注釈をエクスポート…</translation>
    </message>
    <message>
        <source>Make the selected annotated model call an example: its messages as the input, the note (else the reply) as the reference</source>
        <translation>選んだ注釈付きのモデル呼び出しを例にします。メッセージを入力に、メモ（なければ応答）を参照にします</translation>
    </message>
    <message>
        <source>Save this trace's annotations with each block's input and output as JSON Lines</source>
        <translation>このトレースの注釈を、各ブロックの入力と出力とともに JSON Lines で保存します</translation>
    </message>
    <message>
        <source>Select an annotated model call to add it to a dataset.</source>
        <translation>データセットに追加するには、注釈付きのモデル呼び出しを選んでください。</translation>
    </message>
    <message>
        <source>Search blocks (text, kind:model, def:name, failed, annotated, score:down, note:word)</source>
        <translation>ブロックを検索（テキスト、kind:model、def:名前、failed、annotated、score:down、note:語）</translation>
    </message>
    <message>
        <source>Annotation</source>
        <translation>注釈</translation>
    </message>
    <message>
        <source>Annotated. This run's trace is not a file: save it (Run › Save Trace As…) and open it to keep its annotations.</source>
        <translation>注釈を付けました。この実行のトレースはファイルではありません。注釈を残すには、保存して（実行 › 名前を付けてトレースを保存…）開き直してください。</translation>
    </message>
    <message>
        <source>The new annotation is kept until the window closes.</source>
        <translation>新しい注釈はウィンドウを閉じるまで保持されます。</translation>
    </message>
    <message>
        <source>Select a block in the trace to annotate it.</source>
        <translation>注釈を付けるブロックをトレースで選んでください。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 に書き込めません: %2</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n annotation(s) to %1</source>
        <translation>
            <numerusform>%n 件の注釈を %1 にエクスポートしました</numerusform>
        </translation>
    </message>
    <message>
        <source>This trace has no annotations yet.</source>
        <translation>このトレースにはまだ注釈がありません。</translation>
    </message>
    <message>
        <source>Export Annotations</source>
        <translation>注釈をエクスポート</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl);;All files (*)</source>
        <translation>JSON Lines (*.jsonl);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Annotation: %1</source>
        <translation>注釈: %1</translation>
    </message>
    <message>
        <source>Score the selected block (✓, ✗, a number or a label) and note why</source>
        <translation>選んだブロックを評価し（✓、✗、数値またはラベル）、理由をメモします</translation>
    </message>
    <message>
        <source>no trace is on show</source>
        <translation>トレースが表示されていません</translation>
    </message>
    <message>
        <source>The score was not kept in the prompt log: %1</source>
        <translation>スコアをプロンプトログに保存できませんでした: %1</translation>
    </message>
</context>
<context>
    <name>hako::BoxPainter</name>
    <message>
        <source>… 1 more iteration — click to show</source>
        <translation>… あと 1 回の繰り返し — クリックで表示</translation>
    </message>
    <message>
        <source>… %1 more iterations — click to show</source>
        <translation>… あと %1 回の繰り返し — クリックで表示</translation>
    </message>
    <message>
        <source>output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>running…</source>
        <translation>実行中…</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>model output</source>
        <translation>モデルの出力</translation>
    </message>
    <message>
        <source>contributes nothing</source>
        <translation>出力に寄与しない</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>一時停止中</translation>
    </message>
    <message>
        <source>… %1 more blocks — click to show more</source>
        <translation>… あと %1 個のブロック — クリックでさらに表示</translation>
    </message>
</context>
<context>
    <name>hako::BoxView</name>
    <message>
        <source>Trace boxes</source>
        <translation>トレースのボックス</translation>
    </message>
    <message>
        <source>Legend of block kinds</source>
        <translation>ブロックの種類の凡例</translation>
    </message>
    <message>
        <source>Laying out…</source>
        <translation>レイアウト中…</translation>
    </message>
    <message>
        <source>No trace yet: run a program or open a trace file.</source>
        <translation>トレースはまだありません。プログラムを実行するか、トレースファイルを開いてください。</translation>
    </message>
    <message>
        <source>Show All Iterations</source>
        <translation>すべての繰り返しを表示</translation>
    </message>
    <message>
        <source>Show Source</source>
        <translation>ソースを表示</translation>
    </message>
    <message>
        <source>Show Structure</source>
        <translation>構造を表示</translation>
    </message>
    <message>
        <source>Show Output</source>
        <translation>出力を表示</translation>
    </message>
    <message>
        <source>Copy Full Text</source>
        <translation>全文をコピー</translation>
    </message>
    <message>
        <source>Zoom In</source>
        <translation>拡大</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>縮小</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>全体を表示</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>凡例</translation>
    </message>
    <message>
        <source>1 hidden iteration; click to show it</source>
        <translation>非表示の繰り返しが 1 回あります。クリックで表示</translation>
    </message>
    <message>
        <source>%1 hidden iterations; click to show them all</source>
        <translation>非表示の繰り返しが %1 回あります。クリックですべて表示</translation>
    </message>
    <message>
        <source>line %1, column %2</source>
        <translation>%1 行 %2 列</translation>
    </message>
    <message>
        <source>contributes nothing</source>
        <translation>出力に寄与しない</translation>
    </message>
    <message>
        <source>Re-run from Here</source>
        <translation>ここから再実行</translation>
    </message>
    <message>
        <source>Run the program again: what came before this block is replayed from this run, this block and the rest run live</source>
        <translation>プログラムをもう一度実行します。このブロックより前はこの実行の記録を再生し、このブロックから後を実際に実行します</translation>
    </message>
    <message>
        <source>Show All Blocks</source>
        <translation>すべてのブロックを表示</translation>
    </message>
    <message>
        <source>%1 more blocks are not drawn; click to draw the next %2 (the menu: all)</source>
        <translation>描かれていないブロックが %1 個あります。クリックで次の %2 個を表示（メニューからすべて）</translation>
    </message>
    <message>
        <source>Show %1 More Blocks</source>
        <translation>さらに %1 個のブロックを表示</translation>
    </message>
    <message numerus="yes">
        <source>%n block(s) drawn</source>
        <translation>
            <numerusform>%n 個のブロックを描画</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 blocks drawn, %2 behind “more” boxes; click one to show them</source>
        <translation>%1 個のブロックを描画、%2 個は「あと…」の箱の中。クリックで表示</translation>
    </message>
</context>
<context>
    <name>hako::BreakpointsView</name>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Remove All</source>
        <translation>すべて削除</translation>
    </message>
    <message>
        <source>Breakpoint</source>
        <translation>ブレークポイント</translation>
    </message>
    <message>
        <source>Condition</source>
        <translation>条件</translation>
    </message>
    <message>
        <source>Log Message</source>
        <translation>ログメッセージ</translation>
    </message>
    <message>
        <source>Breakpoints</source>
        <translation>ブレークポイント</translation>
    </message>
    <message>
        <source>The check box turns a breakpoint on or off. Double-click its condition (pause only when true, e.g. i == 2) or its log message (write e.g.  i is ${ i }  to the Console instead of pausing)</source>
        <translation>チェックボックスでブレークポイントをオン・オフします。条件（真のときだけ一時停止。例: i == 2）やログメッセージ（一時停止せずに、例えば  i is ${ i }  をコンソールに書き出します）はダブルクリックで編集できます</translation>
    </message>
    <message>
        <source>Remove breakpoint</source>
        <translation>ブレークポイントを削除</translation>
    </message>
    <message>
        <source>Remove the selected breakpoint</source>
        <translation>選択したブレークポイントを削除します</translation>
    </message>
    <message>
        <source>Remove all breakpoints</source>
        <translation>すべてのブレークポイントを削除</translation>
    </message>
    <message>
        <source>Remove every breakpoint of this program</source>
        <translation>このプログラムのブレークポイントをすべて削除します</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>無題</translation>
    </message>
</context>
<context>
    <name>hako::CallStackView</name>
    <message>
        <source>Call Stack</source>
        <translation>コールスタック</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>場所</translation>
    </message>
    <message>
        <source>Call stack</source>
        <translation>コールスタック</translation>
    </message>
    <message>
        <source>The blocks the paused run is inside, innermost first; click one to see its variables and watch values and to show it in the editor</source>
        <translation>一時停止中の実行が入っているブロックです（内側から順に表示）。クリックすると、その変数とウォッチの値を表示し、エディターでその位置を示します</translation>
    </message>
</context>
<context>
    <name>hako::ConsolePane</name>
    <message>
        <source>Send</source>
        <translation>送信</translation>
    </message>
    <message>
        <source>End Input</source>
        <translation>入力終了</translation>
    </message>
    <message>
        <source>Program output</source>
        <translation>プログラムの出力</translation>
    </message>
    <message>
        <source>Program output appears here. Run a program with F5.</source>
        <translation>ここにプログラムの出力が表示されます。F5 キーでプログラムを実行します。</translation>
    </message>
    <message>
        <source>Program input</source>
        <translation>プログラムへの入力</translation>
    </message>
    <message>
        <source>Program input (several lines)</source>
        <translation>プログラムへの入力（複数行）</translation>
    </message>
    <message>
        <source>Type a line and press Enter</source>
        <translation>1 行入力して Enter キーを押します</translation>
    </message>
    <message>
        <source>Type the input; Ctrl+Enter sends it</source>
        <translation>入力して Ctrl+Enter で送信します</translation>
    </message>
    <message>
        <source>Answer with end of input (Ctrl+D)</source>
        <translation>入力の終わりを送ります (Ctrl+D)</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>クリア</translation>
    </message>
    <message>
        <source>Clear the console</source>
        <translation>コンソールをクリア</translation>
    </message>
    <message>
        <source>[end of input]</source>
        <translation>[入力終了]</translation>
    </message>
    <message>
        <source>▶ Running %1</source>
        <translation>▶ %1 を実行中</translation>
    </message>
    <message>
        <source>■ Finished</source>
        <translation>■ 完了</translation>
    </message>
    <message>
        <source>■ Stopped</source>
        <translation>■ 停止</translation>
    </message>
    <message>
        <source>■ Failed</source>
        <translation>■ 失敗</translation>
    </message>
    <message>
        <source>Input:</source>
        <translation>入力:</translation>
    </message>
</context>
<context>
    <name>hako::ContentBrowser</name>
    <message>
        <source>Image %1 of %2</source>
        <translation>画像 %1/%2</translation>
    </message>
</context>
<context>
    <name>hako::CsvImportDialog</name>
    <message>
        <source>Import a CSV File</source>
        <translation>CSV ファイルのインポート</translation>
    </message>
    <message>
        <source>Import a CSV file</source>
        <translation>CSV ファイルのインポート</translation>
    </message>
    <message numerus="yes">
        <source>%n row(s), read as %1. Check what each column becomes, then Import.</source>
        <translation>
            <numerusform>%n 行、%1 として読みました。各列が何になるかを確かめてから「インポート」を押してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Columns of the file</source>
        <translation>ファイルの列</translation>
    </message>
    <message>
        <source>Column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Becomes</source>
        <translation>何になるか</translation>
    </message>
    <message>
        <source>First values</source>
        <translation>最初の値</translation>
    </message>
    <message>
        <source>an input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>the reference answer</source>
        <translation>参照(期待する答え)</translation>
    </message>
    <message>
        <source>a note (metadata)</source>
        <translation>メモ(メタデータ)</translation>
    </message>
    <message>
        <source>nothing (left out)</source>
        <translation>使わない</translation>
    </message>
    <message>
        <source>the example's id</source>
        <translation>例の ID</translation>
    </message>
    <message>
        <source>a promptfoo assertion</source>
        <translation>promptfoo のアサーション</translation>
    </message>
    <message>
        <source>What column %1 becomes</source>
        <translation>列 %1 が何になるか</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>インポート</translation>
    </message>
</context>
<context>
    <name>hako::DatasetPane</name>
    <message>
        <source>Examples</source>
        <translation>例</translation>
    </message>
    <message>
        <source>Dataset name</source>
        <translation>データセット名</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>description</source>
        <translation>説明</translation>
    </message>
    <message>
        <source>Add Row</source>
        <translation>行を追加</translation>
    </message>
    <message>
        <source>Remove Rows</source>
        <translation>行を削除</translation>
    </message>
    <message>
        <source>Import…</source>
        <translation>インポート…</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>エクスポート…</translation>
    </message>
    <message>
        <source>Save Version</source>
        <translation>版を保存</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>データセット:</translation>
    </message>
    <message>
        <source>Not changed: %1</source>
        <translation>変更されていません: %1</translation>
    </message>
    <message>
        <source>Import Examples</source>
        <translation>例をインポート</translation>
    </message>
    <message>
        <source>Datasets (*.jsonl *.json *.csv *.yaml *.yml);;All files (*)</source>
        <translation>データセット (*.jsonl *.json *.csv *.yaml *.yml);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Export Examples</source>
        <translation>例をエクスポート</translation>
    </message>
    <message>
        <source>JSON Lines (*.jsonl);;JSON (*.json);;CSV (*.csv);;LangSmith JSONL (*.jsonl);;promptfoo tests (*.yaml)</source>
        <translation>JSON Lines (*.jsonl);;JSON (*.json);;CSV (*.csv);;LangSmith JSONL (*.jsonl);;promptfoo のテスト (*.yaml)</translation>
    </message>
    <message numerus="yes">
        <source>Added %n example(s).</source>
        <translation>
            <numerusform>%n 件の例を追加しました。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… ほか %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Added %1; left out %2 that do not fit: %3</source>
        <translation>%1 件を追加しました。合わない %2 件は除外しました: %3</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 に書き込めません: %2</translation>
    </message>
    <message>
        <source>No evaluation store to save to.</source>
        <translation>保存先の評価ストアがありません。</translation>
    </message>
    <message>
        <source>Give the dataset a name first.</source>
        <translation>先にデータセットに名前を付けてください。</translation>
    </message>
    <message>
        <source>Saved %1 version %2.</source>
        <translation>%1 の版 %2 を保存しました。</translation>
    </message>
    <message>
        <source>Saved datasets</source>
        <translation>保存したデータセット</translation>
    </message>
    <message>
        <source>Open a dataset saved earlier</source>
        <translation>以前に保存したデータセットを開きます</translation>
    </message>
    <message>
        <source>Dataset version</source>
        <translation>データセットの版</translation>
    </message>
    <message>
        <source>Every saved edit is a version; open an older one here</source>
        <translation>保存した編集はすべて版になります。古い版はここで開けます</translation>
    </message>
    <message>
        <source>Datasets</source>
        <translation>データセット</translation>
    </message>
    <message>
        <source>The examples shown have changes that are not saved. Discard them?</source>
        <translation>表示中の例には保存していない変更があります。破棄しますか?</translation>
    </message>
    <message>
        <source>Open a saved dataset…</source>
        <translation>保存したデータセットを開く…</translation>
    </message>
    <message numerus="yes">
        <source>%1 (v%2, %n example(s))</source>
        <translation>
            <numerusform>%1(v%2、%n 件の例)</numerusform>
        </translation>
    </message>
    <message>
        <source>v%1 · %2</source>
        <translation>v%1 · %2</translation>
    </message>
    <message>
        <source>Add Column…</source>
        <translation>列を追加…</translation>
    </message>
    <message>
        <source>Add an input column (right-click a column's header to rename or remove it)</source>
        <translation>入力の列を追加します(列見出しを右クリックすると名前の変更や削除ができます)</translation>
    </message>
    <message>
        <source>Add Column</source>
        <translation>列を追加</translation>
    </message>
    <message>
        <source>Rename Column “%1”…</source>
        <translation>列「%1」の名前を変更…</translation>
    </message>
    <message>
        <source>Rename Column</source>
        <translation>列の名前を変更</translation>
    </message>
    <message>
        <source>Remove Column “%1”</source>
        <translation>列「%1」を削除</translation>
    </message>
    <message>
        <source>Input name (as the prompt writes it inside ${ }):</source>
        <translation>入力の名前(プロンプトの ${ } の中に書く名前):</translation>
    </message>
    <message>
        <source>No column added: %1</source>
        <translation>列を追加しませんでした: %1</translation>
    </message>
    <message>
        <source>Not renamed: %1</source>
        <translation>名前を変更しませんでした: %1</translation>
    </message>
    <message>
        <source>Not removed: %1</source>
        <translation>削除しませんでした: %1</translation>
    </message>
    <message>
        <source>The columns are the inputs of the program under test; add, rename or remove them from the column headers' menu.</source>
        <translation>列はテスト中のプログラムの入力です。列見出しのメニューから追加・名前の変更・削除ができます。</translation>
    </message>
</context>
<context>
    <name>hako::DebugLinks</name>
    <message>
        <source>&amp;Debug Program</source>
        <translation>デバッグ実行(&amp;D)</translation>
    </message>
    <message>
        <source>Run the program in the editor under the debugger (F6)</source>
        <translation>エディターのプログラムをデバッガーで実行します (F6)</translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>続行(&amp;C)</translation>
    </message>
    <message>
        <source>Step &amp;Over</source>
        <translation>ステップオーバー(&amp;O)</translation>
    </message>
    <message>
        <source>Step &amp;Into</source>
        <translation>ステップイン(&amp;I)</translation>
    </message>
    <message>
        <source>Step O&amp;ut</source>
        <translation>ステップアウト(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>一時停止(&amp;P)</translation>
    </message>
    <message>
        <source>Toggle &amp;Breakpoint</source>
        <translation>ブレークポイントの切り替え(&amp;B)</translation>
    </message>
    <message>
        <source>Pause on &amp;Errors</source>
        <translation>エラーで一時停止(&amp;E)</translation>
    </message>
    <message>
        <source>Pause Before &amp;Model Calls</source>
        <translation>モデル呼び出しの前で一時停止(&amp;M)</translation>
    </message>
    <message>
        <source>Running under the debugger…</source>
        <translation>デバッガーで実行中…</translation>
    </message>
    <message>
        <source>Paused at %1</source>
        <translation>%1 で一時停止中</translation>
    </message>
    <message>
        <source>The debugged run ended.</source>
        <translation>デバッグ実行が終わりました。</translation>
    </message>
    <message>
        <source>Run to &amp;Cursor</source>
        <translation>カーソルまで実行(&amp;C)</translation>
    </message>
    <message>
        <source>Go on until the block on the cursor's line (Ctrl+F10)</source>
        <translation>カーソル行のブロックまで実行を続けます (Ctrl+F10)</translation>
    </message>
    <message>
        <source>Breakpoint Con&amp;dition…</source>
        <translation>ブレークポイントの条件(&amp;D)…</translation>
    </message>
    <message>
        <source>Pause on the cursor's line only when an expression is true, e.g. i == 3</source>
        <translation>式が真のときだけカーソル行で一時停止します（例: i == 3）</translation>
    </message>
    <message>
        <source>Breakpoint Condition</source>
        <translation>ブレークポイントの条件</translation>
    </message>
    <message>
        <source>Pause at line %1 only when this is true (for example  i == 3  or  topic == "owls"); leave it empty to pause every time:</source>
        <translation>%1 行目で、次の式が真のときだけ一時停止します（例:  i == 3  や  topic == "owls"）。空にすると毎回停止します:</translation>
    </message>
    <message>
        <source>The condition '%1' cannot be read: %2. The breakpoint is unchanged.</source>
        <translation>条件「%1」を読み取れません: %2。ブレークポイントは変更していません。</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Stop the run (Shift+F5)</source>
        <translation>実行を停止します（Shift+F5）</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>デバッグ</translation>
    </message>
    <message>
        <source>Debug toolbar</source>
        <translation>デバッグツールバー</translation>
    </message>
    <message>
        <source>Go on until the next breakpoint (F5 or F8)</source>
        <translation>次のブレークポイントまで実行を続けます（F5 または F8）</translation>
    </message>
    <message>
        <source>Run the current block and pause at the next one (F10)</source>
        <translation>現在のブロックを実行し、次のブロックで一時停止します（F10）</translation>
    </message>
    <message>
        <source>Pause at the first block inside the current one (F11)</source>
        <translation>現在のブロックの中の最初のブロックで一時停止します（F11）</translation>
    </message>
    <message>
        <source>Finish the enclosing block and pause after it (Shift+F11)</source>
        <translation>外側のブロックを最後まで実行し、その後で一時停止します（Shift+F11）</translation>
    </message>
    <message>
        <source>Pause the running program before its next block</source>
        <translation>実行中のプログラムを次のブロックの前で一時停止します</translation>
    </message>
    <message>
        <source>Showing the frame %1</source>
        <translation>フレーム %1 を表示しています</translation>
    </message>
</context>
<context>
    <name>hako::DebugPane</name>
    <message>
        <source>Answer</source>
        <translation>応答</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>Debug variables</source>
        <translation>デバッグ中の変数</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>ロール</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Debug context</source>
        <translation>デバッグ中のコンテキスト</translation>
    </message>
    <message>
        <source>Reply to the model call by hand…</source>
        <translation>モデル呼び出しに手で応答…</translation>
    </message>
    <message>
        <source>Model reply by hand</source>
        <translation>手で入力するモデルの応答</translation>
    </message>
    <message>
        <source>Not debugging. Run › Debug Program (F6) runs the program under the debugger.</source>
        <translation>デバッグしていません。［実行］›［デバッグ実行］(F6) でプログラムをデバッガーで実行します。</translation>
    </message>
    <message>
        <source>Paused at %1</source>
        <translation>%1 で一時停止中</translation>
    </message>
    <message>
        <source>Where the debugged run is</source>
        <translation>デバッグ中の実行の位置</translation>
    </message>
</context>
<context>
    <name>hako::DebugSession</name>
    <message>
        <source>paused at %1</source>
        <translation>%1 で一時停止</translation>
    </message>
    <message>
        <source>usage: break FILE:LINE [if EXPR]</source>
        <translation>使い方: break FILE:LINE [if EXPR]</translation>
    </message>
    <message>
        <source>Breakpoint %1 at %2:%3</source>
        <translation>ブレークポイント %1: %2:%3</translation>
    </message>
    <message>
        <source> if %1</source>
        <translation> if %1</translation>
    </message>
    <message>
        <source>The program is not paused.</source>
        <translation>プログラムは一時停止していません。</translation>
    </message>
    <message>
        <source>Deleted breakpoint %1</source>
        <translation>ブレークポイント %1 を削除しました</translation>
    </message>
    <message>
        <source>No breakpoint %1</source>
        <translation>ブレークポイント %1 はありません</translation>
    </message>
    <message>
        <source>%1: %2:%3</source>
        <translation>%1: %2:%3</translation>
    </message>
    <message numerus="yes">
        <source> (hit %n time(s))</source>
        <translation>
            <numerusform>（%n 回到達）</numerusform>
        </translation>
    </message>
    <message>
        <source>No breakpoints.</source>
        <translation>ブレークポイントはありません。</translation>
    </message>
    <message>
        <source>usage: until FILE:LINE</source>
        <translation>使い方: until FILE:LINE</translation>
    </message>
    <message>
        <source>usage: print EXPR</source>
        <translation>使い方: print EXPR</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>エラー: %1</translation>
    </message>
    <message>
        <source>usage: set NAME = VALUE</source>
        <translation>使い方: set NAME = VALUE</translation>
    </message>
    <message>
        <source>(empty context)</source>
        <translation>（コンテキストは空です）</translation>
    </message>
    <message>
        <source>%1 [%2]</source>
        <translation>%1 [%2]</translation>
    </message>
    <message>
        <source>usage: pause errors|models on|off</source>
        <translation>使い方: pause errors|models on|off</translation>
    </message>
    <message>
        <source>break FILE:LINE [if EXPR]  set a breakpoint (break LINE: in the program)
delete N                   delete breakpoint N; breaks lists them
continue, c                run to the next breakpoint
next, n                    run to the next block at this level or above
step, s                    run to the next block (into this one)
out                        run to the end of the enclosing block
until FILE:LINE            run to the block at that line
print EXPR, p              evaluate a PDL expression here
vars                       the variables here
set NAME = VALUE           set a variable (VALUE in YAML/JSON)
context                    the background context (set context = [...])
answer TEXT                answer the model call here by hand
where                      where the program is paused
pause errors|models on|off pause on errors / before model calls
quit, q                    stop the program
</source>
        <translation>break FILE:LINE [if EXPR]  set a breakpoint (break LINE: in the program)
delete N                   delete breakpoint N; breaks lists them
continue, c                run to the next breakpoint
next, n                    run to the next block at this level or above
step, s                    run to the next block (into this one)
out                        run to the end of the enclosing block
until FILE:LINE            run to the block at that line
print EXPR, p              evaluate a PDL expression here
vars                       the variables here
set NAME = VALUE           set a variable (VALUE in YAML/JSON)
context                    the background context (set context = [...])
answer TEXT                answer the model call here by hand
where                      where the program is paused
pause errors|models on|off pause on errors / before model calls
quit, q                    stop the program
</translation>
    </message>
    <message>
        <source>Unknown command: %1 (help lists them)</source>
        <translation>不明なコマンド: %1（help で一覧を表示します）</translation>
    </message>
    <message>
        <source>No breakpoint set: %1</source>
        <translation>ブレークポイントを設定しませんでした: %1</translation>
    </message>
    <message>
        <source> (line %1 has no block)</source>
        <translation>(%1 行目にはブロックがありません)</translation>
    </message>
    <message>
        <source>Not resumed: %1</source>
        <translation>再開しませんでした: %1</translation>
    </message>
    <message>
        <source>Line %1 has no block: running until line %2</source>
        <translation>%1 行目にはブロックがありません。%2 行目まで実行します</translation>
    </message>
</context>
<context>
    <name>hako::DefRename</name>
    <message>
        <source>Rena&amp;me Definition…</source>
        <translation>定義の名前を変更(&amp;M)…</translation>
    </message>
    <message>
        <source>Rename the variable under the cursor, where it is defined and everywhere it is used (Shift+F6)</source>
        <translation>カーソル位置の変数の名前を、定義とすべての使用箇所で変更します (Shift+F6)</translation>
    </message>
    <message>
        <source>The program changed while the rename was being prepared; try again.</source>
        <translation>名前の変更を準備している間にプログラムが変わりました。もう一度お試しください。</translation>
    </message>
    <message>
        <source>Cannot rename: the program cannot be read until its errors are fixed.</source>
        <translation>名前を変更できません: エラーを直すまでプログラムを読み込めません。</translation>
    </message>
    <message>
        <source>Rename Definition</source>
        <translation>定義の名前を変更</translation>
    </message>
    <message>
        <source>New name for '%1' (its definition and every use):</source>
        <translation>「%1」の新しい名前（定義とすべての使用箇所）:</translation>
    </message>
    <message>
        <source>Cannot rename '%1': %2</source>
        <translation>「%1」の名前を変更できません: %2</translation>
    </message>
</context>
<context>
    <name>hako::DiffLinks</name>
    <message>
        <source>Trace Comparison</source>
        <translation>トレース比較</translation>
    </message>
    <message>
        <source>Compa&amp;re Traces…</source>
        <translation>トレースを比較(&amp;R)…</translation>
    </message>
    <message>
        <source>Compare two trace files block by block</source>
        <translation>2 つのトレースファイルをブロックごとに比較します</translation>
    </message>
    <message>
        <source>Compare Shown Trace &amp;with File…</source>
        <translation>表示中のトレースをファイルと比較(&amp;W)…</translation>
    </message>
    <message>
        <source>Compare the trace the panes show (the last run or an opened file) with a trace file</source>
        <translation>ペインに表示中のトレース（最後の実行または開いたファイル）をトレースファイルと比較します</translation>
    </message>
    <message>
        <source>Traces (*.json *.jsonl *.pb *.otlp);;All files (*)</source>
        <translation>トレース (*.json *.jsonl *.pb *.otlp);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Compare Traces — First (Left) Trace</source>
        <translation>トレースを比較 — 1 つ目（左）のトレース</translation>
    </message>
    <message>
        <source>Compare Traces — Second (Right) Trace</source>
        <translation>トレースを比較 — 2 つ目（右）のトレース</translation>
    </message>
    <message>
        <source>Compare Shown Trace with…</source>
        <translation>表示中のトレースと比較…</translation>
    </message>
    <message>
        <source>No trace is shown: run a program or open a trace first.</source>
        <translation>トレースが表示されていません。先にプログラムを実行するか、トレースを開いてください。</translation>
    </message>
    <message>
        <source>shown trace</source>
        <translation>表示中のトレース</translation>
    </message>
    <message>
        <source>Comparing %1 with %2…</source>
        <translation>%1 と %2 を比較しています…</translation>
    </message>
    <message>
        <source>%1 and %2: the runs are the same (timings aside)</source>
        <translation>%1 と %2: 実行内容は同じです（時間を除く）</translation>
    </message>
    <message>
        <source>%1 and %2: %3 changed, %4 inserted, %5 deleted</source>
        <translation>%1 と %2: 変更 %3、追加 %4、削除 %5</translation>
    </message>
</context>
<context>
    <name>hako::DocumentPane</name>
    <message>
        <source>search 白鳥 停車場 · show 181-182 · rank query · answer text   (Enter to run)</source>
        <translation>search 白鳥 停車場 · show 181-182 · rank 質問 · answer 回答   (Enter で実行)</translation>
    </message>
    <message>
        <source>Cost: 0</source>
        <translation>コスト: 0</translation>
    </message>
    <message>
        <source>No document</source>
        <translation>文書なし</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Sentences</source>
        <translation>文</translation>
    </message>
    <message>
        <source>Paragraphs</source>
        <translation>段落</translation>
    </message>
    <message>
        <source>What search results and show numbers refer to: lines as in the file, or sentences/paragraphs cut to at most 200 characters (for texts with very long lines)</source>
        <translation>検索結果と show の番号が指す単位: ファイルどおりの行、または最大 200 文字に区切った文・段落（1 行がとても長いテキスト向け）</translation>
    </message>
    <message>
        <source>Ruby</source>
        <translation>ルビ</translation>
    </message>
    <message>
        <source>Show Aozora Bunko ruby as small readings above the text</source>
        <translation>青空文庫のルビを本文の上に小さく表示します</translation>
    </message>
    <message>
        <source>Seed output</source>
        <translation>seed 形式の出力</translation>
    </message>
    <message>
        <source>Context output</source>
        <translation>前後の文脈を出力</translation>
    </message>
    <message>
        <source>Seed: the seed game's exact output (first 20 characters of each hit). Context: a snippet around the first match, every term bold, the true page and hit counts, and suggestions when nothing matches</source>
        <translation>seed: seed ゲームと同じ出力（各ヒットの先頭 20 文字）。文脈: 最初の一致の前後の抜粋、検索語はすべて太字、実際のページ数とヒット数、一致がないときは候補を表示</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>エクスポート</translation>
    </message>
    <message>
        <source>Save the session's transcript as JSON or Markdown</source>
        <translation>セッションの記録を JSON または Markdown で保存します</translation>
    </message>
    <message>
        <source>Transcript as JSON…</source>
        <translation>記録を JSON で保存…</translation>
    </message>
    <message>
        <source>Transcript as Markdown…</source>
        <translation>記録を Markdown で保存…</translation>
    </message>
    <message>
        <source>Document text</source>
        <translation>文書の本文</translation>
    </message>
    <message>
        <source>Document command</source>
        <translation>文書のコマンド</translation>
    </message>
    <message>
        <source>Document hits</source>
        <translation>文書の検索結果</translation>
    </message>
    <message>
        <source>Document transcript</source>
        <translation>文書の操作記録</translation>
    </message>
    <message>
        <source>Document indexing progress</source>
        <translation>文書の索引作成の進行状況</translation>
    </message>
    <message>
        <source>Document units</source>
        <translation>文書の単位</translation>
    </message>
    <message>
        <source>Document output mode</source>
        <translation>文書の出力形式</translation>
    </message>
    <message>
        <source>Show ruby</source>
        <translation>ルビを表示</translation>
    </message>
    <message>
        <source>Export transcript</source>
        <translation>記録をエクスポート</translation>
    </message>
    <message>
        <source>Units:</source>
        <translation>単位:</translation>
    </message>
    <message>
        <source>No document is open.</source>
        <translation>文書が開かれていません。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 に書き込めません: %2</translation>
    </message>
    <message>
        <source>Export Transcript</source>
        <translation>記録のエクスポート</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Indexing %1%… "%2" runs when the index is ready.</source>
        <translation>索引を作成中 %1%… 完了後に「%2」を実行します。</translation>
    </message>
    <message>
        <source>Cost: %1</source>
        <translation>コスト: %1</translation>
    </message>
</context>
<context>
    <name>hako::EditMenu</name>
    <message>
        <source>Renamed '%1' to '%2' (1 place)</source>
        <translation>「%1」を「%2」に変更しました（1 か所）</translation>
    </message>
    <message>
        <source>Renamed '%1' to '%2' (%3 places)</source>
        <translation>「%1」を「%2」に変更しました（%3 か所）</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直し(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>切り取り(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>コピー(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>貼り付け(&amp;P)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>すべて選択(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>検索(&amp;F)…</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>次を検索(&amp;N)</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>前を検索(&amp;V)</translation>
    </message>
    <message>
        <source>R&amp;eplace…</source>
        <translation>置換(&amp;E)…</translation>
    </message>
    <message>
        <source>Toggle &amp;Comment</source>
        <translation>コメントの切り替え(&amp;C)</translation>
    </message>
    <message>
        <source>Go to &amp;Definition</source>
        <translation>定義へ移動(&amp;D)</translation>
    </message>
    <message>
        <source>No definition in this file for the name at the cursor</source>
        <translation>カーソル位置の名前の定義はこのファイルにありません</translation>
    </message>
</context>
<context>
    <name>hako::EditorPane</name>
    <message>
        <source>untitled.pdl</source>
        <translation>無題.pdl</translation>
    </message>
    <message>
        <source>The program has no file name yet</source>
        <translation>プログラムにはまだファイル名がありません</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>自動保存に失敗しました: %1</translation>
    </message>
    <message>
        <source>No recovery store</source>
        <translation>復元用の保存先がありません</translation>
    </message>
    <message>
        <source>%1 no longer exists; the recovered text is unsaved</source>
        <translation>%1 はもう存在しません。復元したテキストは未保存です</translation>
    </message>
    <message>
        <source>&amp;Word Wrap</source>
        <translation>折り返し(&amp;W)</translation>
    </message>
    <message>
        <source>Wrap long lines at the edge of the editor</source>
        <translation>長い行をエディターの端で折り返します</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>Prompt view</source>
        <translation>プロンプト表示</translation>
    </message>
    <message>
        <source>Show the program as prompts and settings (Ctrl+Shift+Y)</source>
        <translation>プログラムをプロンプトと設定として表示します (Ctrl+Shift+Y)</translation>
    </message>
    <message>
        <source>YAML</source>
        <translation>YAML</translation>
    </message>
    <message>
        <source>YAML view</source>
        <translation>YAML 表示</translation>
    </message>
    <message>
        <source>Show the program's YAML source (Ctrl+Shift+Y)</source>
        <translation>プログラムの YAML ソースを表示します (Ctrl+Shift+Y)</translation>
    </message>
    <message>
        <source>&amp;Prompt View</source>
        <translation>プロンプト表示(&amp;P)</translation>
    </message>
    <message>
        <source>Switch between the Prompt view and the YAML view</source>
        <translation>プロンプト表示と YAML 表示を切り替えます</translation>
    </message>
</context>
<context>
    <name>hako::EvalLinks</name>
    <message>
        <source>The evaluation store cannot be opened: %1</source>
        <translation>評価ストアを開けません: %1</translation>
    </message>
    <message>
        <source>The experiment did not finish: %1</source>
        <translation>実験は最後まで終わりませんでした: %1</translation>
    </message>
    <message>
        <source>Experiment finished</source>
        <translation>実験が終わりました</translation>
    </message>
    <message>
        <source>Experiment stopped</source>
        <translation>実験を停止しました</translation>
    </message>
    <message numerus="yes">
        <source>Added %1 of %n call(s) to the dataset (Save Version keeps them)</source>
        <translation>
            <numerusform>%n 件の呼び出しのうち %1 件をデータセットに追加しました（［版を保存］で残ります）</numerusform>
        </translation>
    </message>
    <message>
        <source>The evaluation store cannot be opened.</source>
        <translation>評価ストアを開けません。</translation>
    </message>
    <message>
        <source>Choose the program to test: a saved .pdl file.</source>
        <translation>テストするプログラム（保存済みの .pdl ファイル）を選んでください。</translation>
    </message>
    <message>
        <source>The program has unsaved changes; the experiment runs the saved file.</source>
        <translation>プログラムに未保存の変更があります。実験は保存済みのファイルを実行します。</translation>
    </message>
    <message>
        <source>Save and Run</source>
        <translation>保存して実行</translation>
    </message>
    <message>
        <source>The dataset has no examples yet: add some in the Datasets pane, or select calls in the Prompt Log and click Add to Dataset.</source>
        <translation>データセットにまだ例がありません。「データセット」ペインで追加するか、プロンプトログで呼び出しを選んで［データセットに追加］を押してください。</translation>
    </message>
    <message>
        <source>Tick at least one check to apply to the outputs.</source>
        <translation>出力に適用するチェックを 1 つ以上選んでください。</translation>
    </message>
    <message>
        <source>before an experiment</source>
        <translation>実験の前に保存</translation>
    </message>
    <message>
        <source>Save the dataset first (its message says why it could not be saved).</source>
        <translation>先にデータセットを保存してください（保存できなかった理由はそのメッセージに表示されています）。</translation>
    </message>
    <message>
        <source>This program runs code or reaches other servers: run it once with F5 and trust its folder, or turn on Run › Sandbox.</source>
        <translation>このプログラムはコードを実行するか、ほかのサーバーに接続します。一度 F5 で実行してフォルダーを信頼するか、［実行］›［サンドボックス］をオンにしてください。</translation>
    </message>
    <message numerus="yes">
        <source>Running %1 over %n example(s)…</source>
        <translation>
            <numerusform>%1 を %n 件の例で実行中…</numerusform>
        </translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>実験</translation>
    </message>
    <message>
        <source>This version already ran on this dataset: experiment %1 is used again</source>
        <translation>この版はこのデータセットで実行済みです。実験 %1 をそのまま使います</translation>
    </message>
    <message>
        <source>The program sets “%1” itself (line %2), so every example would run with the program's value instead of the dataset's. Make it an input, or rename the dataset's column.</source>
        <translation>プログラムが「%1」を自分で設定しています(%2 行目)。このままではどの例もデータセットの値ではなくプログラムの値で実行されます。入力にするか、データセットの列名を変えてください。</translation>
    </message>
    <message>
        <source>Make It an Input</source>
        <translation>入力にする</translation>
    </message>
    <message>
        <source>The sample value is gone from the program (Ctrl+Z brings it back); its examples come from the dataset now. Save and run the experiment again.</source>
        <translation>サンプルの値をプログラムから外しました(Ctrl+Z で戻せます)。これからはデータセットの例が使われます。保存してから実験をもう一度実行してください。</translation>
    </message>
</context>
<context>
    <name>hako::EvalResultsPane</name>
    <message>
        <source>Failures only</source>
        <translation>失敗のみ</translation>
    </message>
    <message>
        <source>Evaluation results</source>
        <translation>評価結果</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>判定理由</translation>
    </message>
    <message>
        <source>Click a score to read why.</source>
        <translation>スコアをクリックすると理由が表示されます。</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>実験</translation>
    </message>
    <message>
        <source>Compare with</source>
        <translation>比較対象</translation>
    </message>
    <message>
        <source>Experiment:</source>
        <translation>実験:</translation>
    </message>
    <message>
        <source>Compare with:</source>
        <translation>比較対象:</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <source>(nothing)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>not judged yet</source>
        <translation>未判定</translation>
    </message>
    <message>
        <source>could not judge</source>
        <translation>判定できませんでした</translation>
    </message>
    <message>
        <source>pass</source>
        <translation>合格</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>不合格</translation>
    </message>
    <message>
        <source>%1 of %2 examples</source>
        <translation>%2 件中 %1 件の例</translation>
    </message>
    <message>
        <source>%1: mean %2, %3/%4 pass (%5–%6%)</source>
        <translation>%1: 平均 %2、合格 %3/%4（%5–%6%）</translation>
    </message>
    <message>
        <source>Experiment settings</source>
        <translation>実験の設定</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>名前を変更…</translation>
    </message>
    <message>
        <source>Rename experiment</source>
        <translation>実験の名前を変更</translation>
    </message>
    <message>
        <source>Give the experiment shown a name of your own</source>
        <translation>表示中の実験に名前を付けます</translation>
    </message>
    <message>
        <source>Rename Experiment</source>
        <translation>実験の名前を変更</translation>
    </message>
    <message>
        <source>Name of the experiment:</source>
        <translation>実験の名前:</translation>
    </message>
    <message>
        <source> (prompt v%1)</source>
        <translation>(プロンプト第%1版)</translation>
    </message>
    <message>
        <source>%1 on example %2: %3</source>
        <translation>例 %2 の「%1」: %3</translation>
    </message>
    <message>
        <source>Example %1</source>
        <translation>例 %1</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>The program failed</source>
        <translation>プログラムが失敗しました</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Output against the reference (red: only in the output, green: only in the reference)</source>
        <translation>出力と参照の違い(赤: 出力にだけあるもの、緑: 参照にだけあるもの)</translation>
    </message>
    <message>
        <source>Against the baseline's output (red: the baseline's, green: now)</source>
        <translation>基準の出力との違い(赤: 基準、緑: 今回)</translation>
    </message>
    <message>
        <source>The range in brackets is where the pass rate would likely fall with many more examples like these (a 95% interval): the fewer the examples, the wider it is.</source>
        <translation>かっこ内の範囲は、同じような例をもっと多く試したときに合格率が収まるとみられる範囲です(95% 区間)。例が少ないほど広くなります。</translation>
    </message>
</context>
<context>
    <name>hako::ExperimentForm</name>
    <message>
        <source>Same as the reference</source>
        <translation>参照と同じ</translation>
    </message>
    <message>
        <source>Contains the reference</source>
        <translation>参照を含む</translation>
    </message>
    <message>
        <source>Close to the reference (80% alike)</source>
        <translation>参照に近い（80% 一致）</translation>
    </message>
    <message>
        <source>Is valid JSON</source>
        <translation>正しい JSON</translation>
    </message>
    <message>
        <source>At most this many characters:</source>
        <translation>最大文字数:</translation>
    </message>
    <message>
        <source>A judge model checks that:</source>
        <translation>判定モデルが確認する内容:</translation>
    </message>
    <message>
        <source>&amp;Run Experiment</source>
        <translation>実験を実行(&amp;R)</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Program to test</source>
        <translation>テストするプログラム</translation>
    </message>
    <message>
        <source>the program each example runs through</source>
        <translation>各例を実行するプログラム</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>Choose the program</source>
        <translation>プログラムを選択</translation>
    </message>
    <message>
        <source>Dataset to run</source>
        <translation>実行するデータセット</translation>
    </message>
    <message>
        <source>Passes when the output is the example's reference, letter for letter (spaces at the ends ignored)</source>
        <translation>出力が例の参照と 1 文字ずつ同じなら合格です（前後の空白は無視）</translation>
    </message>
    <message>
        <source>Passes when at most a fifth of the characters differ from the reference (edit distance)</source>
        <translation>参照と異なる文字が 5 分の 1 以下なら合格です（編集距離）</translation>
    </message>
    <message>
        <source>Counts characters, so Japanese text is counted as it reads</source>
        <translation>文字単位で数えるので、日本語も見たとおりの文字数になります</translation>
    </message>
    <message>
        <source>Most characters</source>
        <translation>最大文字数</translation>
    </message>
    <message>
        <source>What the judge checks</source>
        <translation>判定の基準（確認する内容）</translation>
    </message>
    <message>
        <source>e.g. the answer is polite / 50文字以上200文字以内に収まっているか</source>
        <translation>例: 丁寧な回答になっているか / 50文字以上200文字以内に収まっているか</translation>
    </message>
    <message>
        <source>Judge model</source>
        <translation>判定モデル</translation>
    </message>
    <message>
        <source>The model that judges (empty: the default model)</source>
        <translation>判定に使うモデル（空欄: 既定のモデル）</translation>
    </message>
    <message>
        <source>Examples at a time</source>
        <translation>同時に実行する例の数</translation>
    </message>
    <message>
        <source>Run Experiment</source>
        <translation>実験を実行</translation>
    </message>
    <message>
        <source>Runs every example of the dataset through the program and checks each output (Ctrl+Shift+E)</source>
        <translation>データセットのすべての例をプログラムで実行し、それぞれの出力をチェックします (Ctrl+Shift+E)</translation>
    </message>
    <message>
        <source>Stop Experiment</source>
        <translation>実験を停止</translation>
    </message>
    <message>
        <source>Experiment progress</source>
        <translation>実験の進行状況</translation>
    </message>
    <message>
        <source>%v of %m examples</source>
        <translation>%m 件中 %v 件</translation>
    </message>
    <message>
        <source>Program:</source>
        <translation>プログラム:</translation>
    </message>
    <message>
        <source>with</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Examples at a time:</source>
        <translation>同時に実行する例:</translation>
    </message>
    <message>
        <source>Program to Test</source>
        <translation>テストするプログラム</translation>
    </message>
    <message>
        <source>PDL programs (*.pdl *.yaml *.yml);;All files (*)</source>
        <translation>PDL プログラム (*.pdl *.yaml *.yml);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Dataset: the one in the Datasets pane (none yet — add examples there, or from the Prompt Log)</source>
        <translation>データセット: 「データセット」ペインのもの（まだありません — そこで例を追加するか、プロンプトログから追加してください）</translation>
    </message>
    <message>
        <source>Dataset: %1 (the one in the Datasets pane); each output is checked by:</source>
        <translation>データセット: %1（「データセット」ペインのもの）。各出力のチェック:</translation>
    </message>
    <message>
        <source>Judge models</source>
        <translation>判定モデルの一覧</translation>
    </message>
</context>
<context>
    <name>hako::ExperimentJob</name>
    <message>
        <source>An experiment is already running.</source>
        <translation>実験はすでに実行中です。</translation>
    </message>
    <message>
        <source>There is no evaluation store.</source>
        <translation>評価ストアがありません。</translation>
    </message>
    <message>
        <source>Save the dataset (with at least one example) first.</source>
        <translation>先にデータセット（例が 1 件以上）を保存してください。</translation>
    </message>
    <message>
        <source>Save the program first: the experiment runs the saved file.</source>
        <translation>先にプログラムを保存してください。実験は保存済みのファイルを実行します。</translation>
    </message>
    <message>
        <source>Choose at least one evaluator.</source>
        <translation>評価方法を 1 つ以上選んでください。</translation>
    </message>
    <message>
        <source>Stopped after %1 of %2 examples; the rest can be run later.</source>
        <translation>%2 件中 %1 件で停止しました。残りは後で実行できます。</translation>
    </message>
</context>
<context>
    <name>hako::FileController</name>
    <message>
        <source>Unsaved Changes</source>
        <translation>未保存の変更</translation>
    </message>
    <message>
        <source>Save the changes to “%1” before closing it?</source>
        <translation>閉じる前に「%1」への変更を保存しますか？</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>開く</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 を開きました</translation>
    </message>
    <message>
        <source>Save Program As</source>
        <translation>名前を付けてプログラムを保存</translation>
    </message>
    <message>
        <source>PDL programs (*.pdl *.yaml *.yml);;All files (*)</source>
        <translation>PDL プログラム (*.pdl *.yaml *.yml);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>This example needs a model. %1</source>
        <translation>このサンプルにはモデルが必要です。%1</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>最近使ったファイルはありません</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>一覧を消去(&amp;C)</translation>
    </message>
    <message>
        <source>Run without a model</source>
        <translation>モデル不要</translation>
    </message>
    <message>
        <source>Need a model</source>
        <translation>モデルが必要</translation>
    </message>
    <message>
        <source>No examples installed</source>
        <translation>サンプルがインストールされていません</translation>
    </message>
    <message>
        <source>Untitled program</source>
        <translation>無題のプログラム</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Nothing to recover</source>
        <translation>復元するものはありません</translation>
    </message>
    <message>
        <source>Restored unsaved changes from %1. Save to keep them.</source>
        <translation>%1 から未保存の変更を復元しました。残すには保存してください。</translation>
    </message>
    <message>
        <source>an untitled program</source>
        <translation>無題のプログラム</translation>
    </message>
    <message>
        <source>Restore Unsaved Programs?</source>
        <translation>未保存のプログラムを復元しますか？</translation>
    </message>
    <message>
        <source>It needs a memory store (Memory pane).</source>
        <translation>メモリストアが必要です（メモリ ペイン）。</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新規(&amp;N)</translation>
    </message>
    <message>
        <source>New from &amp;Template…</source>
        <translation>テンプレートから新規作成(&amp;T)…</translation>
    </message>
    <message>
        <source>Open &amp;Document…</source>
        <translation>文書を開く(&amp;D)…</translation>
    </message>
    <message>
        <source>Open Document</source>
        <translation>文書を開く</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;Trace…</source>
        <translation>トレースを開く(&amp;T)…</translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation>トレースを開く</translation>
    </message>
    <message>
        <source>Recover &amp;Unsaved</source>
        <translation>未保存の復元(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>名前を付けて保存(&amp;A)…</translation>
    </message>
    <message numerus="yes">
        <source>%n recovery copies could not be read and were skipped: %1</source>
        <translation>
            <numerusform>%n 件の復元用コピーを読めなかったため飛ばしました: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Hako was closed without saving:

%1

Restore the unsaved changes? Each opens in its own tab. (If not, they stay under File › Recover Unsaved.)</source>
        <translation>Hako は保存せずに終了しました:

%1

保存されていない変更を復元しますか?それぞれ別のタブで開きます。(復元しない場合も「ファイル › 未保存の内容を復元」に残ります。)</translation>
    </message>
    <message>
        <source>New program from the template “%1”: change the inputs at the top to your own text, then press Run. Save to keep it.</source>
        <translation>テンプレート「%1」から新しいプログラムを作りました。先頭の入力を自分の文章に書き換えてから「実行」を押してください。残すには保存してください。</translation>
    </message>
    <message>
        <source>The program of trace %1 was not found; the editor shows another program</source>
        <translation>トレース %1 のプログラムが見つかりません。エディターには別のプログラムが表示されています</translation>
    </message>
    <message>
        <source>Traces (*.json *.jsonl *.pb);;All files (*)</source>
        <translation>トレース (*.json *.jsonl *.pb);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Programs, traces, documents, memory stores and notebooks (*.pdl *.yaml *.yml *.json *.txt *.md *.pdf *.hakomem *.ipynb);;PDL programs (*.pdl *.yaml *.yml);;Traces (*.json);;Notebooks (*.ipynb);;All files (*)</source>
        <translation>プログラム・トレース・文書・メモリストア・ノートブック (*.pdl *.yaml *.yml *.json *.txt *.md *.pdf *.hakomem *.ipynb);;PDL プログラム (*.pdl *.yaml *.yml);;トレース (*.json);;ノートブック (*.ipynb);;すべてのファイル (*)</translation>
    </message>
</context>
<context>
    <name>hako::FindBar</name>
    <message>
        <source>Match case</source>
        <translation>大文字と小文字を区別</translation>
    </message>
    <message>
        <source>Whole words</source>
        <translation>単語単位</translation>
    </message>
    <message>
        <source>Regular expression</source>
        <translation>正規表現</translation>
    </message>
    <message>
        <source>Find</source>
        <translation>検索</translation>
    </message>
    <message>
        <source>Replace with</source>
        <translation>置換後の文字列</translation>
    </message>
    <message>
        <source>Find previous (Shift+F3)</source>
        <translation>前を検索 (Shift+F3)</translation>
    </message>
    <message>
        <source>Find previous</source>
        <translation>前を検索</translation>
    </message>
    <message>
        <source>Find next (F3)</source>
        <translation>次を検索 (F3)</translation>
    </message>
    <message>
        <source>Find next</source>
        <translation>次を検索</translation>
    </message>
    <message>
        <source>Close (Escape)</source>
        <translation>閉じる (Esc)</translation>
    </message>
    <message>
        <source>Close the find bar</source>
        <translation>検索バーを閉じる</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>置換</translation>
    </message>
    <message>
        <source>Replace All</source>
        <translation>すべて置換</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>一致なし</translation>
    </message>
    <message numerus="yes">
        <source>%n replaced</source>
        <translation>
            <numerusform>%n 件置換しました</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::FlameCanvas</name>
    <message>
        <source>Flame chart</source>
        <translation>フレームチャート</translation>
    </message>
    <message numerus="yes">
        <source>%n bar(s)</source>
        <translation>
            <numerusform>バー %n 本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es) the search</source>
        <translation>
            <numerusform>%n 件が検索に一致します</numerusform>
        </translation>
    </message>
    <message>
        <source>Selected: %1</source>
        <translation>選択中: %1</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>cost %1</source>
        <translation>コスト %1</translation>
    </message>
    <message>
        <source>This run recorded no token counts: size the bars by duration.</source>
        <translation>この実行にはトークン数の記録がありません。バーの幅を所要時間にしてください。</translation>
    </message>
    <message>
        <source>This run recorded no cost: size the bars by duration or tokens.</source>
        <translation>この実行にはコストの記録がありません。バーの幅を所要時間かトークン数にしてください。</translation>
    </message>
    <message>
        <source>This run recorded no timing.</source>
        <translation>この実行には時間の記録がありません。</translation>
    </message>
    <message>
        <source>%1 (%2% of the run)</source>
        <translation>%1（実行全体の %2%）</translation>
    </message>
    <message>
        <source>Own: %1</source>
        <translation>自身: %1</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
</context>
<context>
    <name>hako::FlameView</name>
    <message>
        <source>Run totals</source>
        <translation>実行の合計</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>所要時間</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>トークン数</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <source>Size bars by</source>
        <translation>バーの幅の基準</translation>
    </message>
    <message>
        <source>What a bar's width shows: the block's duration, its tokens or its cost (with everything it called)</source>
        <translation>バーの幅が表すもの: ブロックの所要時間、トークン数、またはコスト（呼び出した先を含みます）</translation>
    </message>
    <message>
        <source>Search bars…</source>
        <translation>バーを検索…</translation>
    </message>
    <message>
        <source>Search the flame chart</source>
        <translation>フレームチャートを検索</translation>
    </message>
    <message>
        <source>Lights the bars whose name or kind contains this text; Enter selects the next one</source>
        <translation>名前か種類にこの文字を含むバーを強調します。Enter で次のバーを選択します</translation>
    </message>
    <message>
        <source>Search matches</source>
        <translation>検索の一致数</translation>
    </message>
    <message>
        <source>Size by:</source>
        <translation>幅の基準:</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 件一致</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::GraphCanvas</name>
    <message>
        <source>Agent graph</source>
        <translation>エージェントのグラフ</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s)</source>
        <translation>
            <numerusform>ノード %n 個</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n edge(s)</source>
        <translation>
            <numerusform>矢印 %n 本</numerusform>
        </translation>
    </message>
    <message>
        <source>Selected: %1</source>
        <translation>選択中: %1</translation>
    </message>
    <message numerus="yes">
        <source>Ran %n time(s)</source>
        <translation>
            <numerusform>%n 回実行されました</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>失敗 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Click to select, click again for the next run, double-click for the source</source>
        <translation>クリックで選択、もう一度クリックで次の実行、ダブルクリックでソースを表示します</translation>
    </message>
</context>
<context>
    <name>hako::GraphView</name>
    <message>
        <source>Run totals</source>
        <translation>実行の合計</translation>
    </message>
</context>
<context>
    <name>hako::GuideWindow</name>
    <message>
        <source>Hako User Guide</source>
        <translation>Hako 使い方ガイド</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>使い方ガイド</translation>
    </message>
    <message>
        <source>User guide text</source>
        <translation>使い方ガイドの本文</translation>
    </message>
</context>
<context>
    <name>hako::ImagePartsStrip</name>
    <message>
        <source>Images in this message</source>
        <translation>このメッセージの画像</translation>
    </message>
    <message>
        <source>Image %1 of %2: %3</source>
        <translation>画像 %1/%2: %3</translation>
    </message>
</context>
<context>
    <name>hako::InputsForm</name>
    <message>
        <source>Inputs</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Values this program needs. They are kept for this file and used when you run it.</source>
        <translation>このプログラムに必要な値です。このファイル用に保存され、実行するときに使われます。</translation>
    </message>
    <message>
        <source>One item per line</source>
        <translation>1 行に 1 項目</translation>
    </message>
    <message>
        <source>A number</source>
        <translation>数値</translation>
    </message>
    <message>
        <source>A file's path</source>
        <translation>ファイルのパス</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>選択…</translation>
    </message>
    <message>
        <source>Choose a file for %1</source>
        <translation>%1 のファイルを選択</translation>
    </message>
    <message>
        <source>Choose a File for %1</source>
        <translation>%1 のファイルを選択</translation>
    </message>
    <message>
        <source>Input %1</source>
        <translation>入力 %1</translation>
    </message>
    <message>
        <source>Used on line %1</source>
        <translation>%1 行目で使われています</translation>
    </message>
    <message>
        <source>Input set</source>
        <translation>入力セット</translation>
    </message>
    <message>
        <source>Fill the form with values saved under a name</source>
        <translation>名前を付けて保存した値でフォームを埋めます</translation>
    </message>
    <message>
        <source>Save Set…</source>
        <translation>セットを保存…</translation>
    </message>
    <message>
        <source>Keep these values under a name, to use them again</source>
        <translation>これらの値に名前を付けて保存し、あとで使えるようにします</translation>
    </message>
    <message>
        <source>Save input set</source>
        <translation>入力セットを保存</translation>
    </message>
    <message>
        <source>Delete Set</source>
        <translation>セットを削除</translation>
    </message>
    <message>
        <source>Delete input set</source>
        <translation>入力セットを削除</translation>
    </message>
    <message>
        <source>Export Data File…</source>
        <translation>データファイルに書き出す…</translation>
    </message>
    <message>
        <source>Export inputs as a data file</source>
        <translation>入力をデータファイルに書き出す</translation>
    </message>
    <message>
        <source>Write these values to a file for the command line: hako run -f FILE</source>
        <translation>これらの値をコマンドライン用のファイルに書き出します: hako run -f ファイル</translation>
    </message>
    <message>
        <source>Sets</source>
        <translation>セット</translation>
    </message>
    <message>
        <source>Save Input Set</source>
        <translation>入力セットを保存</translation>
    </message>
    <message>
        <source>Name of this set of values:</source>
        <translation>この値のセットの名前:</translation>
    </message>
    <message>
        <source>Export Data File</source>
        <translation>データファイルに書き出す</translation>
    </message>
    <message>
        <source>Data files (*.json *.yaml *.yml)</source>
        <translation>データファイル (*.json *.yaml *.yml)</translation>
    </message>
    <message>
        <source>Wrote %1: run it with  hako run -f %1  PROGRAM</source>
        <translation>%1 に書き出しました。実行するには  hako run -f %1  プログラム</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>%1 に書き出せませんでした: %2</translation>
    </message>
    <message>
        <source>(no saved sets)</source>
        <translation>（保存したセットはありません）</translation>
    </message>
</context>
<context>
    <name>hako::LanguageManager</name>
    <message>
        <source>&amp;System Language</source>
        <translation>システムの言語(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
</context>
<context>
    <name>hako::LibPq</name>
    <message>
        <source>PostgreSQL needs its client library, which could not be loaded (%1). Install the libpq5 package, or keep the log in a SQLite file.</source>
        <translation>PostgreSQL にはクライアントライブラリが必要ですが、読み込めませんでした（%1）。libpq5 パッケージをインストールするか、ログを SQLite ファイルに保存してください。</translation>
    </message>
</context>
<context>
    <name>hako::LibraryLinks</name>
    <message>
        <source>Library</source>
        <translation>ライブラリ</translation>
    </message>
    <message>
        <source>Save &amp;Version…</source>
        <translation>版として保存(&amp;V)…</translation>
    </message>
    <message>
        <source>Save the program and record it as a version in the prompt library</source>
        <translation>プログラムを保存し、プロンプトライブラリに版として記録します</translation>
    </message>
    <message>
        <source>The older version is in the editor. Save it as a new version to keep it, or undo (Ctrl+Z) to go back.</source>
        <translation>古い版をエディターに入れました。残すには新しい版として保存してください。元に戻すには取り消し (Ctrl+Z) を使います。</translation>
    </message>
</context>
<context>
    <name>hako::LibraryPane</name>
    <message>
        <source>Prompt Library</source>
        <translation>プロンプトライブラリ</translation>
    </message>
    <message>
        <source>No library is open.</source>
        <translation>ライブラリが開かれていません。</translation>
    </message>
    <message>
        <source>Library folder</source>
        <translation>ライブラリのフォルダー</translation>
    </message>
    <message>
        <source>Open Library…</source>
        <translation>ライブラリを開く…</translation>
    </message>
    <message>
        <source>Open Library</source>
        <translation>ライブラリを開く</translation>
    </message>
    <message>
        <source>Prompts</source>
        <translation>プロンプト一覧</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>版</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>ラベル</translation>
    </message>
    <message>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>保存日時</translation>
    </message>
    <message>
        <source>By</source>
        <translation>保存した人</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Version details</source>
        <translation>版の詳細</translation>
    </message>
    <message>
        <source>Set Label…</source>
        <translation>ラベルを付ける…</translation>
    </message>
    <message>
        <source>Set Label</source>
        <translation>ラベルを付ける</translation>
    </message>
    <message>
        <source>Mark the selected version as production, staging or any name</source>
        <translation>選んだ版に production、staging などの名前を付けます</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Compare versions</source>
        <translation>版を比較</translation>
    </message>
    <message>
        <source>Compare the selected version with the newest, or two selected versions with each other</source>
        <translation>選んだ版を最新の版と比べます。2 つ選んだときはその 2 つを比べます</translation>
    </message>
    <message>
        <source>Restore version</source>
        <translation>版を復元</translation>
    </message>
    <message>
        <source>Put the selected version's text into the program (you can undo it, and save it as a new version)</source>
        <translation>選んだ版の内容をプログラムに入れます (取り消せます。新しい版として保存できます)</translation>
    </message>
    <message>
        <source>Version message</source>
        <translation>版のメッセージ</translation>
    </message>
    <message>
        <source>What changed in this version?</source>
        <translation>この版で何を変えましたか？</translation>
    </message>
    <message>
        <source>Save Version</source>
        <translation>版として保存</translation>
    </message>
    <message>
        <source>Save the current program and record it as a new version</source>
        <translation>今のプログラムを保存し、新しい版として記録します</translation>
    </message>
    <message>
        <source>Open Prompt Library</source>
        <translation>プロンプトライブラリを開く</translation>
    </message>
    <message>
        <source>%1 is not a prompt library yet. Make it one? Its programs can then be saved as versions.</source>
        <translation>%1 はまだプロンプトライブラリではありません。ライブラリにしますか？ その中のプログラムを版として保存できるようになります。</translation>
    </message>
    <message>
        <source>The prompt library %1 cannot be opened: %2</source>
        <translation>プロンプトライブラリ %1 を開けません: %2</translation>
    </message>
    <message>
        <source>No prompt has been saved here yet. Open or save a program in this folder, then use Save Version.</source>
        <translation>ここにはまだプロンプトが保存されていません。このフォルダーでプログラムを開くか保存してから「版として保存」を使ってください。</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>第%1版</translation>
    </message>
    <message>
        <source>%1 → v%2 (%3, %4)</source>
        <translation>%1 → 第%2版 (%3、%4)</translation>
    </message>
    <message>
        <source>No labels yet. Select a version and use Set Label to mark it, for example as production.</source>
        <translation>まだラベルはありません。版を選んで「ラベルを付ける」で、たとえば production の印を付けてください。</translation>
    </message>
    <message>
        <source>Label history:
%1</source>
        <translation>ラベルの履歴:
%1</translation>
    </message>
    <message>
        <source>Label for version %1 of %2:</source>
        <translation>%2 の %1 に付けるラベル:</translation>
    </message>
    <message>
        <source>%1: %2 is now version %3</source>
        <translation>%1: %2 は第%3版になりました</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;v%1 → v%2&lt;/b&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;第%1版 → 第%2版&lt;/b&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open a prompt library first (Open Library…).</source>
        <translation>先にプロンプトライブラリを開いてください (ライブラリを開く…)。</translation>
    </message>
    <message>
        <source>Saved %1 as a new version.</source>
        <translation>%1 を新しい版として保存しました。</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>復元</translation>
    </message>
    <message>
        <source>Run on Dataset</source>
        <translation>データセットで実行</translation>
    </message>
    <message>
        <source>Run versions on the dataset</source>
        <translation>版をデータセットで実行</translation>
    </message>
    <message>
        <source>Run the selected version and the newest (or two selected versions) over the Datasets pane's dataset with the checks of the Evaluations pane, and compare their results</source>
        <translation>選んだ版と最新版(または選んだ二つの版)を、データセット欄のデータセットと評価欄のチェックで実行し、結果を比べます</translation>
    </message>
    <message>
        <source>Sync with Team</source>
        <translation>チームと同期</translation>
    </message>
    <message>
        <source>Sync with the team's library</source>
        <translation>チームのライブラリと同期</translation>
    </message>
    <message>
        <source>Bring the versions your team saved and send yours, through the team's shared library (a git server)</source>
        <translation>チームの共有ライブラリ(git サーバー)を通じて、チームが保存した版を取り込み、あなたの版を送ります</translation>
    </message>
    <message>
        <source>Address of the team's shared library (a git repository, for example https://git.example.com/team/prompts.git):</source>
        <translation>チームの共有ライブラリのアドレス(git リポジトリ。例: https://git.example.com/team/prompts.git):</translation>
    </message>
    <message>
        <source>Syncing with the team's library…</source>
        <translation>チームのライブラリと同期しています…</translation>
    </message>
    <message>
        <source>The sync did not happen: %1</source>
        <translation>同期できませんでした: %1</translation>
    </message>
    <message>
        <source>These prompts were changed both here and in the team's library since the last sync:
%1

Nothing has been changed yet. Which text should the library keep? The other stays in each prompt's history.</source>
        <translation>前回の同期の後、次のプロンプトがこちらとチームのライブラリの両方で変更されました:
%1

まだ何も変更していません。どちらの文面を残しますか?もう一方も各プロンプトの履歴に残ります。</translation>
    </message>
    <message>
        <source>Keep Mine</source>
        <translation>自分の版を残す</translation>
    </message>
    <message>
        <source>Take Theirs</source>
        <translation>チームの版を使う</translation>
    </message>
    <message>
        <source>Synced with the team: received %1 version(s), sent %2.</source>
        <translation>チームと同期しました: %1 件の版を受け取り、%2 件を送りました。</translation>
    </message>
</context>
<context>
    <name>hako::LogLinks</name>
    <message>
        <source>The trace of this run was not kept (the workbench keeps its own runs' traces; `hako run --trace FILE` writes one)</source>
        <translation>この実行のトレースは保存されていません（ワークベンチは自身の実行のトレースを保存します。`hako run --trace FILE` でも書き出せます）</translation>
    </message>
</context>
<context>
    <name>hako::MainWindow</name>
    <message>
        <source>Line and column</source>
        <translation>行と列</translation>
    </message>
    <message>
        <source>Line endings</source>
        <translation>改行コード</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>文字コード</translation>
    </message>
    <message>
        <source>The prompt log: %1</source>
        <translation>プロンプトログ: %1</translation>
    </message>
    <message>
        <source>Ln %1, Col %2</source>
        <translation>%1 行、%2 列</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>問題</translation>
    </message>
    <message>
        <source>Console</source>
        <translation>コンソール</translation>
    </message>
    <message>
        <source>Documents</source>
        <translation>文書</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>Prompt Log</source>
        <translation>プロンプトログ</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>Open Document</source>
        <translation>文書を開く</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>実行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>設定(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Model Endpoints…</source>
        <translation>モデルの接続先(&amp;M)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Examples</source>
        <translation>サンプル(&amp;E)</translation>
    </message>
    <message>
        <source>About &amp;Plugins</source>
        <translation>プラグインについて(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;About Hako</source>
        <translation>Hako について(&amp;A)</translation>
    </message>
    <message>
        <source>About Hako</source>
        <translation>Hako について</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Hako %1&lt;/h3&gt;&lt;p&gt;A workbench for prompt programs written in the Prompt Declaration Language (PDL).&lt;/p&gt;&lt;p&gt;Built with Qt %2 and QScintilla.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Hako %1&lt;/h3&gt;&lt;p&gt;Prompt Declaration Language (PDL) で書いたプロンプトプログラムのためのワークベンチです。&lt;/p&gt;&lt;p&gt;Qt %2 と QScintilla で構築されています。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The language changes fully the next time Hako starts.</source>
        <translation>表示言語は Hako の次回起動時にすべて切り替わります。</translation>
    </message>
    <message>
        <source>Playground</source>
        <translation>プレイグラウンド</translation>
    </message>
    <message>
        <source>Open Model Block in &amp;Playground</source>
        <translation>model ブロックをプレイグラウンドで開く(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Traces</source>
        <translation>トレース(&amp;T)</translation>
    </message>
    <message>
        <source>Datasets</source>
        <translation>データセット</translation>
    </message>
    <message>
        <source>Evaluations</source>
        <translation>評価</translation>
    </message>
    <message>
        <source>&amp;Getting Started</source>
        <translation>はじめに(&amp;G)</translation>
    </message>
    <message>
        <source>Debug</source>
        <translation>デバッグ</translation>
    </message>
    <message>
        <source>Outline</source>
        <translation>アウトライン</translation>
    </message>
    <message>
        <source>Problems (%1)</source>
        <translation>問題 (%1)</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>使い方ガイド(&amp;U)</translation>
    </message>
</context>
<context>
    <name>hako::MemoryHistoryView</name>
    <message>
        <source>Changes</source>
        <translation>変更履歴</translation>
    </message>
    <message>
        <source>Seq</source>
        <translation>番号</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Revert to before this change</source>
        <translation>この変更の前に戻す</translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation>由来</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>詳細</translation>
    </message>
    <message>
        <source>Memory %1</source>
        <translation>メモリ %1</translation>
    </message>
    <message>
        <source>Select a memory to see its history.</source>
        <translation>メモリを選択すると履歴が表示されます。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Memory %1&lt;/b&gt; · %2 · %3 · importance %4 (%5) · version %6&lt;br&gt;%7</source>
        <translation>&lt;b&gt;メモリ %1&lt;/b&gt; · %2 · %3 · 重要度 %4 (%5) · バージョン %6&lt;br&gt;%7</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>根拠</translation>
    </message>
    <message>
        <source>%1 memories</source>
        <translation>メモリ %1 件</translation>
    </message>
    <message>
        <source>memory %1</source>
        <translation>メモリ %1</translation>
    </message>
    <message>
        <source>broken link: no such memory</source>
        <translation>リンク切れ: そのメモリはありません</translation>
    </message>
    <message>
        <source>[deleted] %1</source>
        <translation>[削除済み] %1</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>ソース</translation>
    </message>
    <message>
        <source>thread</source>
        <translation>スレッド</translation>
    </message>
    <message>
        <source>messages</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>trace node</source>
        <translation>トレースのノード</translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation>記録なし</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt; by %2 at %3 — %4&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;%1&lt;/b&gt;（%2、%3）— %4&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Revert memory %1 to what it was before change #%2 (%3)?</source>
        <translation>メモリ %1 を変更 #%2 (%3) の前の状態に戻しますか？</translation>
    </message>
</context>
<context>
    <name>hako::MemoryInspector</name>
    <message>
        <source>Memory</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>Open store…</source>
        <translation>ストアを開く…</translation>
    </message>
    <message>
        <source>Search text…</source>
        <translation>テキストを検索…</translation>
    </message>
    <message>
        <source>Search memories</source>
        <translation>メモリを検索</translation>
    </message>
    <message>
        <source>Similar to… (Enter)</source>
        <translation>類似検索… (Enter)</translation>
    </message>
    <message>
        <source>Memories similar to</source>
        <translation>類似するメモリ</translation>
    </message>
    <message>
        <source>Memory kind</source>
        <translation>メモリの種類</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>すべての種類</translation>
    </message>
    <message>
        <source>Memory state</source>
        <translation>メモリの状態</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>すべての状態</translation>
    </message>
    <message>
        <source>Minimum importance</source>
        <translation>重要度の下限</translation>
    </message>
    <message>
        <source>importance ≥ </source>
        <translation>重要度 ≥ </translation>
    </message>
    <message>
        <source>Archive</source>
        <translation>アーカイブ</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Memories</source>
        <translation>メモリ</translation>
    </message>
    <message>
        <source>Retrievals</source>
        <translation>検索履歴</translation>
    </message>
    <message>
        <source>History &amp;&amp; provenance</source>
        <translation>履歴と由来</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>タイムライン</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>スレッド</translation>
    </message>
    <message>
        <source>Open memory store</source>
        <translation>メモリストアを開く</translation>
    </message>
    <message>
        <source>Memory stores (*.hakomem *.sqlite *.db);;All files (*)</source>
        <translation>メモリストア (*.hakomem *.sqlite *.db);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 件中 %1 件</translation>
    </message>
    <message>
        <source>This store has no embeddings to search.</source>
        <translation>このストアには検索に使える埋め込みがありません。</translation>
    </message>
    <message>
        <source>No model provider for '%1'.</source>
        <translation>「%1」のモデルプロバイダーがありません。</translation>
    </message>
    <message>
        <source>This memory store is damaged (SQLite's quick check: %1). It is open read-only: browse it and export what can be read, then import the export into a new store.</source>
        <translation>このメモリストアは破損しています（SQLite の簡易チェック: %1）。読み取り専用で開いています。内容を確認して読めるものをエクスポートし、新しいストアにインポートしてください。</translation>
    </message>
    <message>
        <source>You may only read this memory store: it is open read-only.</source>
        <translation>このメモリストアは読み取り専用で開いているため、読むことしかできません。</translation>
    </message>
    <message numerus="yes">
        <source>%1 %n memories? The journal keeps their history.</source>
        <translation>
            <numerusform>%n 件のメモリを%1しますか？履歴はジャーナルに残ります。</numerusform>
        </translation>
    </message>
    <message>
        <source>Memory %1 is hidden by the current filter.</source>
        <translation>メモリ %1 は現在のフィルターで非表示になっています。</translation>
    </message>
</context>
<context>
    <name>hako::MemoryTimelineView</name>
    <message>
        <source>No memories yet.</source>
        <translation>メモリはまだありません。</translation>
    </message>
    <message>
        <source>reflection threshold %1</source>
        <translation>振り返りのしきい値 %1</translation>
    </message>
    <message>
        <source>   ● created   | accessed   ▲ reflection</source>
        <translation>   ● 作成   | アクセス   ▲ 振り返り</translation>
    </message>
</context>
<context>
    <name>hako::MessageBar</name>
    <message>
        <source>Dismiss</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <source>Dismiss message</source>
        <translation>メッセージを閉じる</translation>
    </message>
    <message>
        <source>Message action</source>
        <translation>メッセージの操作</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Message details</source>
        <translation>メッセージの詳細</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>詳細</translation>
    </message>
    <message>
        <source>Show details</source>
        <translation>詳細を表示</translation>
    </message>
    <message>
        <source>Show the technical wording of this message</source>
        <translation>このメッセージの技術的な詳細を表示します</translation>
    </message>
</context>
<context>
    <name>hako::ModelFailure</name>
    <message>
        <source>The model server does not answer: it may have stopped.</source>
        <translation>モデルのサーバーが応答しません。止まっている可能性があります。</translation>
    </message>
    <message>
        <source>The model server at %1 does not answer: it may have stopped.</source>
        <translation>%1 のモデルサーバーが応答しません。止まっている可能性があります。</translation>
    </message>
    <message>
        <source>Start it again (or check its address in Settings › Model Endpoints), then run again.</source>
        <translation>サーバーを起動し直して(または 設定 › モデルの接続先 でアドレスを確かめて)から、もう一度実行してください。</translation>
    </message>
    <message>
        <source>The model server refused the API key (or none was given). Enter the key in Settings › Model Endpoints, then run again.</source>
        <translation>モデルのサーバーが API キーを拒否しました(またはキーがありません)。設定 › モデルの接続先 でキーを入れてから、もう一度実行してください。</translation>
    </message>
    <message>
        <source>The server has no such model.</source>
        <translation>サーバーにそのモデルはありません。</translation>
    </message>
    <message>
        <source>The server has no model named “%1”.</source>
        <translation>サーバーに「%1」という名前のモデルはありません。</translation>
    </message>
    <message>
        <source>Choose one of its models in the Model field (the list shows what the server has).</source>
        <translation>「モデル」欄で、サーバーにあるモデルを選んでください(一覧にサーバーのモデルが出ます)。</translation>
    </message>
    <message>
        <source>Hako could not get a reply from the model. Check the model settings.</source>
        <translation>モデルから返事を受け取れませんでした。モデルの設定を確かめてください。</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>%1 行目: %2</translation>
    </message>
</context>
<context>
    <name>hako::ModelSettingsDialog</name>
    <message>
        <source>Model settings</source>
        <translation>モデルの設定</translation>
    </message>
    <message>
        <source>%1 — fix the file by hand; saving is disabled.</source>
        <translation>%1 — ファイルを手動で修正してください。保存はできません。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Forget key</source>
        <translation>キーを削除</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>接続テスト</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>ベース URL</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <source>Key variable</source>
        <translation>キーの環境変数</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Programs that say `model: default` use this model; the examples do. Empty: %1.</source>
        <translation>`model: default` と書いたプログラム（サンプルも含む）はこのモデルを使います。空欄のとき: %1。</translation>
    </message>
    <message>
        <source>Default model</source>
        <translation>既定のモデル</translation>
    </message>
    <message>
        <source>Used by programs that say &lt;code&gt;model: default&lt;/code&gt; (the examples do).</source>
        <translation>&lt;code&gt;model: default&lt;/code&gt; と書いたプログラム（サンプルも含む）が使います。</translation>
    </message>
    <message>
        <source>Model names sent to an endpoint</source>
        <translation>接続先に送るモデル名</translation>
    </message>
    <message>
        <source>Model name in programs</source>
        <translation>プログラム内のモデル名</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>接続先</translation>
    </message>
    <message>
        <source>Model on the server</source>
        <translation>サーバー上のモデル</translation>
    </message>
    <message>
        <source>A name (or a glob such as vllm/*) that programs use, the endpoint it goes to, and the name that server knows (empty: the same name, without a prefix ending in /*)</source>
        <translation>プログラムで使う名前（vllm/* のようなパターンも可）、送り先の接続先、そのサーバーでの名前（空欄: 同じ名前から /* で終わる接頭辞を除いたもの）</translation>
    </message>
    <message>
        <source>Map a name</source>
        <translation>名前を対応付け</translation>
    </message>
    <message>
        <source>Remove mapping</source>
        <translation>対応付けを削除</translation>
    </message>
    <message>
        <source>Model names</source>
        <translation>モデル名</translation>
    </message>
    <message>
        <source>Endpoints</source>
        <translation>接続先</translation>
    </message>
    <message>
        <source>Endpoint name</source>
        <translation>接続先の名前</translation>
    </message>
    <message>
        <source>Models the endpoint serves</source>
        <translation>接続先が提供するモデル</translation>
    </message>
    <message>
        <source>Add endpoint</source>
        <translation>接続先を追加</translation>
    </message>
    <message>
        <source>Remove endpoint</source>
        <translation>接続先を削除</translation>
    </message>
    <message>
        <source>Map a model name</source>
        <translation>モデル名を対応付け</translation>
    </message>
    <message>
        <source>%1 (built in)</source>
        <translation>%1（組み込み）</translation>
    </message>
    <message>
        <source>Set by an environment variable (see the README, "Connecting a model")</source>
        <translation>環境変数で設定されています（README の「Connecting a model」を参照）</translation>
    </message>
    <message>
        <source>The key will be removed from the desktop keyring on Save.</source>
        <translation>保存するとキーがデスクトップのキーリングから削除されます。</translation>
    </message>
    <message>
        <source>The new key will be stored in the desktop keyring on Save.</source>
        <translation>保存すると新しいキーがデスクトップのキーリングに保存されます。</translation>
    </message>
    <message>
        <source>A key is stored in the desktop keyring.</source>
        <translation>キーはデスクトップのキーリングに保存されています。</translation>
    </message>
    <message>
        <source>The key comes from the environment variable %1.</source>
        <translation>キーは環境変数 %1 から取得します。</translation>
    </message>
    <message>
        <source>No key (none is needed for Ollama and most local servers).</source>
        <translation>キーなし（Ollama や多くのローカルサーバーでは不要です）。</translation>
    </message>
    <message>
        <source>(stored in the keyring)</source>
        <translation>（キーリングに保存済み）</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>No base URL.</source>
        <translation>ベース URL がありません。</translation>
    </message>
    <message>
        <source>Asking %1 …</source>
        <translation>%1 に問い合わせ中…</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>失敗: %1</translation>
    </message>
    <message numerus="yes">
        <source>Connected: %n model(s).</source>
        <translation>
            <numerusform>接続しました: モデル %n 個。</numerusform>
        </translation>
    </message>
    <message>
        <source>The key of %1 was not stored: %2</source>
        <translation>%1 のキーを保存できませんでした: %2</translation>
    </message>
    <message>
        <source>Saved to %1.</source>
        <translation>%1 に保存しました。</translation>
    </message>
    <message>
        <source>The desktop keyring cannot be used: a key typed here is kept for this session only, unless you choose to store it in a file only you can read. (%1)</source>
        <translation>デスクトップのキーリングを使えません。ここで入力したキーは、あなただけが読めるファイルに保存することを選ばない限り、このセッションの間だけ保持されます。（%1）</translation>
    </message>
    <message>
        <source>Store the key in a file only you can read (%1)</source>
        <translation>あなただけが読めるファイルにキーを保存する（%1）</translation>
    </message>
    <message>
        <source>Store the key in a file</source>
        <translation>キーをファイルに保存する</translation>
    </message>
    <message>
        <source>Without a desktop keyring, a key is otherwise kept only until Hako closes. The file is readable by your user account only.</source>
        <translation>デスクトップのキーリングがないため、選ばない場合キーは Hako を閉じるまでしか保持されません。ファイルはあなたのユーザーアカウントだけが読めます。</translation>
    </message>
    <message>
        <source>The key will be forgotten on Save.</source>
        <translation>保存するとキーを破棄します。</translation>
    </message>
    <message>
        <source>On Save the key will be stored in %1, which only you can read.</source>
        <translation>保存すると、キーはあなただけが読める %1 に保存されます。</translation>
    </message>
    <message>
        <source>On Save the key will be kept for this session only; it is not saved anywhere.</source>
        <translation>保存すると、キーはこのセッションの間だけ保持されます。どこにも書き込まれません。</translation>
    </message>
    <message>
        <source>A key is kept for this session only.</source>
        <translation>キーはこのセッションの間だけ保持されています。</translation>
    </message>
    <message>
        <source>A key is stored in %1, which only you can read.</source>
        <translation>キーはあなただけが読める %1 に保存されています。</translation>
    </message>
    <message>
        <source>The desktop keyring is not available.</source>
        <translation>デスクトップのキーリングは使えません。</translation>
    </message>
    <message>
        <source>(kept for this session)</source>
        <translation>（このセッションの間だけ保持）</translation>
    </message>
    <message>
        <source>(stored in a file)</source>
        <translation>（ファイルに保存済み）</translation>
    </message>
    <message>
        <source>The desktop keyring did not take the key of %1 (%2); it is kept for this session only.</source>
        <translation>デスクトップのキーリングに %1 のキーを保存できませんでした（%2）。キーはこのセッションの間だけ保持されます。</translation>
    </message>
    <message>
        <source>The key of %1 was not removed: %2</source>
        <translation>%1 のキーを削除できませんでした: %2</translation>
    </message>
    <message>
        <source>The key of %1 was not removed from %2: %3</source>
        <translation>%1 のキーを %2 から削除できませんでした: %3</translation>
    </message>
    <message>
        <source>The key of %1 was forgotten.</source>
        <translation>%1 のキーを破棄しました。</translation>
    </message>
    <message>
        <source>The key of %1 is stored in %2, which only you can read.</source>
        <translation>%1 のキーを、あなただけが読める %2 に保存しました。</translation>
    </message>
    <message>
        <source>The key of %1 is kept for this session only (there is no desktop keyring); it is not saved anywhere.</source>
        <translation>%1 のキーはこのセッションの間だけ保持されます（デスクトップのキーリングがありません）。どこにも書き込まれません。</translation>
    </message>
</context>
<context>
    <name>hako::NodeDetailView</name>
    <message>
        <source>Block summary</source>
        <translation>ブロックの概要</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>Open in full</source>
        <translation>全文を表示</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>Tree</source>
        <translation>ツリー</translation>
    </message>
    <message>
        <source>Result as a tree</source>
        <translation>結果をツリーで表示</translation>
    </message>
    <message>
        <source>Result as text</source>
        <translation>結果をテキストで表示</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Show source rebuilt from the trace</source>
        <translation>トレースから再構成したソースを表示</translation>
    </message>
    <message>
        <source>Block source</source>
        <translation>ブロックのソース</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>ソース</translation>
    </message>
    <message>
        <source>Block trace JSON</source>
        <translation>ブロックのトレース JSON</translation>
    </message>
    <message>
        <source>JSON</source>
        <translation>JSON</translation>
    </message>
    <message>
        <source>&lt;i&gt;Select a block in the trace to see its details.&lt;/i&gt;</source>
        <translation>&lt;i&gt;トレースでブロックを選択すると詳細が表示されます。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;No trace. Run a program or open a trace file.&lt;/i&gt;</source>
        <translation>&lt;i&gt;トレースがありません。プログラムを実行するか、トレースファイルを開いてください。&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &lt;i&gt;running…&lt;/i&gt;</source>
        <translation> &lt;i&gt;実行中…&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &lt;i&gt;stopped&lt;/i&gt;</source>
        <translation> &lt;i&gt;停止&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &amp;nbsp;&lt;span style='color:%1'&gt;&lt;b&gt;failed&lt;/b&gt;&lt;/span&gt;</source>
        <translation> &amp;nbsp;&lt;span style='color:%1'&gt;&lt;b&gt;失敗&lt;/b&gt;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Showing the first %1 of %2.</source>
        <translation>%2 のうち最初の %1 を表示しています。</translation>
    </message>
    <message>
        <source>Showing the first %1.</source>
        <translation>最初の %1 を表示しています。</translation>
    </message>
    <message>
        <source>result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>%1, lines %2–%3</source>
        <translation>%1、%2–%3 行</translation>
    </message>
    <message>
        <source>This trace has no source location for the block. </source>
        <translation>このトレースにはブロックのソース位置がありません。</translation>
    </message>
    <message>
        <source>Rebuilt from the trace: expressions appear with the values they had.</source>
        <translation>トレースから再構成しました。式は実行時の値で表示されます。</translation>
    </message>
    <message>
        <source>The node's JSON cannot be shown: %1</source>
        <translation>ノードの JSON を表示できません: %1</translation>
    </message>
    <message>
        <source>Result of %1</source>
        <translation>%1 の結果</translation>
    </message>
    <message>
        <source>%1 characters%2</source>
        <translation>%1 文字%2</translation>
    </message>
    <message>
        <source>; lines longer than 4,000 characters are shown broken</source>
        <translation>。4,000 文字を超える行は折り返して表示します</translation>
    </message>
    <message>
        <source>Save result</source>
        <translation>結果を保存</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>%1 を保存できませんでした: %2</translation>
    </message>
    <message>
        <source>… %1 of text, see the Result tab</source>
        <translation>… %1 のテキスト。［結果］タブを参照</translation>
    </message>
    <message>
        <source> &amp;nbsp;&lt;i&gt;replayed from the run it re-runs (nothing was sent)&lt;/i&gt;</source>
        <translation> &amp;nbsp;&lt;i&gt;再実行元の実行から再生（何も送信していません）&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &amp;nbsp;&lt;i&gt;answered by hand&lt;/i&gt;</source>
        <translation> &amp;nbsp;&lt;i&gt;手入力で回答&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &lt;i&gt;paused&lt;/i&gt;</source>
        <translation> &lt;i&gt;一時停止中&lt;/i&gt;</translation>
    </message>
</context>
<context>
    <name>hako::Notebook</name>
    <message>
        <source>%1 is not a notebook: %2</source>
        <translation>%1 はノートブックではありません: %2</translation>
    </message>
    <message>
        <source>the file is not JSON</source>
        <translation>ファイルが JSON ではありません</translation>
    </message>
    <message>
        <source>%1 is not a Jupyter notebook of format 4 (nbformat 4, with cells).</source>
        <translation>%1 は形式 4 の Jupyter ノートブック (nbformat 4、cells あり) ではありません。</translation>
    </message>
    <message>
        <source>The cell cannot be read.</source>
        <translation>セルを読み取れません。</translation>
    </message>
</context>
<context>
    <name>hako::NotebookLinks</name>
    <message>
        <source>Notebook</source>
        <translation>ノートブック</translation>
    </message>
</context>
<context>
    <name>hako::NotebookPane</name>
    <message>
        <source>Notebook</source>
        <translation>ノートブック</translation>
    </message>
    <message>
        <source>Notebook file</source>
        <translation>ノートブックのファイル</translation>
    </message>
    <message>
        <source>Run All</source>
        <translation>すべて実行</translation>
    </message>
    <message>
        <source>Run every PDL cell in order (Ctrl+Shift+Enter)</source>
        <translation>PDL のセルをすべて順に実行します (Ctrl+Shift+Enter)</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>再起動</translation>
    </message>
    <message>
        <source>Forget every variable and the context the cells have built</source>
        <translation>セルが作った変数とコンテキストをすべて忘れます</translation>
    </message>
    <message>
        <source>Add Cell</source>
        <translation>セルを追加</translation>
    </message>
    <message>
        <source>Add a PDL cell at the end</source>
        <translation>末尾に PDL のセルを追加します</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Write the cells and their outputs to the notebook file</source>
        <translation>セルとその出力をノートブックのファイルに書き込みます</translation>
    </message>
    <message>
        <source>Open a Jupyter notebook (.ipynb) with File › Open: its %%pdl cells run here one after another, each seeing what the earlier ones defined. Create one with `hako notebook new`.</source>
        <translation>ファイル › 開く で Jupyter ノートブック (.ipynb) を開くと、%%pdl のセルがここで順に実行され、各セルは前のセルが定義したものを使えます。新しいノートブックは `hako notebook new` で作れます。</translation>
    </message>
    <message>
        <source>Notebook status</source>
        <translation>ノートブックの状態</translation>
    </message>
    <message>
        <source>Notebook cells</source>
        <translation>ノートブックのセル</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Cannot save the notebook: %1</source>
        <translation>ノートブックを保存できません: %1</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 を開けません: %2</translation>
    </message>
    <message>
        <source>no notebook is open</source>
        <translation>ノートブックが開かれていません</translation>
    </message>
    <message>
        <source>This notebook has no cells yet: Add Cell starts one.</source>
        <translation>このノートブックにはまだセルがありません。「セルを追加」で始められます。</translation>
    </message>
    <message>
        <source>PDL</source>
        <translation>PDL</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>Other code</source>
        <translation>その他のコード</translation>
    </message>
    <message>
        <source>Cell %1 · %2</source>
        <translation>セル %1 · %2</translation>
    </message>
    <message>
        <source>▶ Run</source>
        <translation>▶ 実行</translation>
    </message>
    <message>
        <source>Run cell %1</source>
        <translation>セル %1 を実行</translation>
    </message>
    <message>
        <source>Run this cell (Shift+Enter in it)</source>
        <translation>このセルを実行します (セル内で Shift+Enter)</translation>
    </message>
    <message>
        <source>Boxes</source>
        <translation>ボックス</translation>
    </message>
    <message>
        <source>Boxes of cell %1</source>
        <translation>セル %1 のボックス</translation>
    </message>
    <message>
        <source>Show this cell's last run as boxes in the trace panes</source>
        <translation>このセルの直前の実行をトレースペインにボックスで表示します</translation>
    </message>
    <message>
        <source>Text of cell %1</source>
        <translation>セル %1 のテキスト</translation>
    </message>
    <message>
        <source>Source of cell %1</source>
        <translation>セル %1 のソース</translation>
    </message>
    <message>
        <source>Output of cell %1</source>
        <translation>セル %1 の出力</translation>
    </message>
    <message>
        <source>Running cell %1…</source>
        <translation>セル %1 を実行中…</translation>
    </message>
    <message>
        <source>Cell %1 failed: %2</source>
        <translation>セル %1 が失敗しました: %2</translation>
    </message>
    <message>
        <source>Cell %1 done</source>
        <translation>セル %1 が完了しました</translation>
    </message>
    <message>
        <source>Restarted: the cells start again from no variables and no context</source>
        <translation>再起動しました。セルは変数もコンテキストもない状態から始まります</translation>
    </message>
</context>
<context>
    <name>hako::OtelReceive</name>
    <message>
        <source>Receive &amp;OpenTelemetry</source>
        <translation>OpenTelemetry を受信(&amp;O)</translation>
    </message>
    <message>
        <source>OpenTelemetry: refused a request (%1): %2</source>
        <translation>OpenTelemetry: リクエストを拒否しました (%1): %2</translation>
    </message>
    <message>
        <source>Cannot receive OpenTelemetry: %1</source>
        <translation>OpenTelemetry を受信できません: %1</translation>
    </message>
    <message>
        <source>Receiving OpenTelemetry on http://127.0.0.1:%1/v1/traces</source>
        <translation>http://127.0.0.1:%1/v1/traces で OpenTelemetry を受信中</translation>
    </message>
    <message>
        <source>Stopped receiving OpenTelemetry</source>
        <translation>OpenTelemetry の受信を停止しました</translation>
    </message>
    <message>
        <source>the prompt log cannot be written: %1</source>
        <translation>プロンプトログに書き込めません: %1</translation>
    </message>
    <message>
        <source>Listen on 127.0.0.1 (port: setting otel/receiverPort, default 4318) for the spans of agent runs (OTLP/HTTP) and show them live in the trace panes</source>
        <translation>127.0.0.1 でエージェント実行のスパン(OTLP/HTTP)を受信し、トレースのペインにその場で表示します(ポート: 設定 otel/receiverPort、既定 4318)</translation>
    </message>
    <message>
        <source>Listening on %1 — no runs received yet.</source>
        <translation>%1 で受信待ちです。まだ実行を受信していません。</translation>
    </message>
    <message numerus="yes">
        <source>Listening on %1 — %n run(s) received; pick one to show it.</source>
        <translation>
            <numerusform>%1 で受信待ちです。%n 件の実行を受信しました。表示する実行を選んでください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Not receiving OpenTelemetry; the runs below were received before.</source>
        <translation>OpenTelemetry を受信していません。下の実行は以前に受信したものです。</translation>
    </message>
    <message>
        <source>&amp;Evaluate Received Calls…</source>
        <translation>受信した呼び出しを評価(&amp;E)…</translation>
    </message>
    <message>
        <source>Choose an online evaluation file (evaluators, sample, filter): its evaluators score the received calls as they arrive; uncheck to stop</source>
        <translation>オンライン評価のファイル（評価方法、サンプル、フィルター）を選びます。受信した呼び出しを届いた順に採点します。チェックを外すと止まります</translation>
    </message>
    <message>
        <source>The received traces cannot be kept: %1</source>
        <translation>受信したトレースを保存できません: %1</translation>
    </message>
    <message>
        <source>Received calls are not evaluated: %1</source>
        <translation>受信した呼び出しは評価されません: %1</translation>
    </message>
    <message>
        <source>Received calls are no longer evaluated</source>
        <translation>受信した呼び出しの評価を止めました</translation>
    </message>
    <message>
        <source>Received calls are evaluated with %1 (the calls received from now on)</source>
        <translation>受信した呼び出しを %1 で評価します（これから届く呼び出しが対象です）</translation>
    </message>
    <message>
        <source>Evaluate Received Calls</source>
        <translation>受信した呼び出しを評価</translation>
    </message>
    <message>
        <source>Online evaluation (*.yaml *.yml);;All files (*)</source>
        <translation>オンライン評価 (*.yaml *.yml);;すべてのファイル (*)</translation>
    </message>
</context>
<context>
    <name>hako::OtelRunList</name>
    <message>
        <source>Runs</source>
        <translation>実行一覧</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>開始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>所要時間</translation>
    </message>
    <message>
        <source>Spans</source>
        <translation>スパン数</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>(root not received yet) %1</source>
        <translation>(ルート未受信)%1</translation>
    </message>
    <message>
        <source>Trace %1</source>
        <translation>トレース %1</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>Group by session</source>
        <translation>セッションごとにまとめる</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比較</translation>
    </message>
    <message>
        <source>Where the runs come from</source>
        <translation>実行の取得元</translation>
    </message>
    <message>
        <source>Filter runs: words, status:error, session:…, user:…</source>
        <translation>実行を絞り込み: 語句、status:error、session:…、user:…</translation>
    </message>
    <message>
        <source>Filter runs</source>
        <translation>実行の絞り込み</translation>
    </message>
    <message>
        <source>Keeps the runs whose name, session or user hold every word; status:ok, status:error, status:running, session:X and user:X narrow further</source>
        <translation>名前・セッション・ユーザーにすべての語句を含む実行だけを表示します。status:ok、status:error、status:running、session:X、user:X でさらに絞り込めます</translation>
    </message>
    <message>
        <source>Show the runs of one session (session.id) under it, with the session's totals; pick a session to read its thread</source>
        <translation>同じセッション(session.id)の実行をその下にまとめ、セッションの合計を表示します。セッションを選ぶと、そのスレッドを読めます</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>実行を比較</translation>
    </message>
    <message>
        <source>Compare the two selected runs (select two with Ctrl+click)</source>
        <translation>選んだ 2 つの実行を比較します(Ctrl+クリックで 2 つ選びます)</translation>
    </message>
    <message>
        <source>Runs list message</source>
        <translation>実行一覧のメッセージ</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>トークン数</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <source>Session</source>
        <translation>セッション</translation>
    </message>
    <message>
        <source>User</source>
        <translation>ユーザー</translation>
    </message>
    <message>
        <source>Session thread</source>
        <translation>セッションのスレッド</translation>
    </message>
    <message>
        <source>%1 prompt + %2 completion</source>
        <translation>入力 %1 + 出力 %2</translation>
    </message>
    <message numerus="yes">
        <source>Session %1 — %n run(s)</source>
        <translation>
            <numerusform>セッション %1 — 実行 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Pick the session to read its thread</source>
        <translation>セッションを選ぶと、そのスレッドを読めます</translation>
    </message>
    <message numerus="yes">
        <source>No run matches the filter. Clear it to see all %n run(s).</source>
        <translation>
            <numerusform>絞り込みに合う実行はありません。絞り込みを消すと、全 %n 件の実行が表示されます。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation>
            <numerusform>実行 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>cost %1</source>
        <translation>コスト %1</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>エラー %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Session %1</source>
        <translation>セッション %1</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>(no input recorded)</source>
        <translation>(入力の記録はありません)</translation>
    </message>
    <message>
        <source>(no output recorded)</source>
        <translation>(出力の記録はありません)</translation>
    </message>
    <message numerus="yes">
        <source>The run ended with %n error(s).</source>
        <translation>
            <numerusform>この実行はエラー %n 件で終わりました。</numerusform>
        </translation>
    </message>
    <message>
        <source>Still running.</source>
        <translation>まだ実行中です。</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Prompt log</source>
        <translation>プロンプトログ</translation>
    </message>
    <message>
        <source>Runs of the prompt log</source>
        <translation>プロンプトログの実行</translation>
    </message>
    <message>
        <source>List the runs the prompt log holds: one row per run with its calls' tokens, cost and errors; pick one to read its calls</source>
        <translation>プロンプトログにある実行を一覧にします。1 行が 1 回の実行で、呼び出しのトークン・費用・エラーの合計が出ます。選ぶと、その呼び出しを読めます</translation>
    </message>
    <message>
        <source>No runs to list yet. Open an OTLP or trace file (File › Open Trace…), turn on Traces › Receive OpenTelemetry and run an agent, or press Prompt log to list the runs it holds.</source>
        <translation>まだ実行がありません。OTLP かトレースのファイルを開く(ファイル › トレースを開く…)か、トレース › OpenTelemetry を受信 をオンにしてエージェントを動かすか、「プロンプトログ」を押してログにある実行を並べてください。</translation>
    </message>
</context>
<context>
    <name>hako::OutlineView</name>
    <message>
        <source>Outline</source>
        <translation>アウトライン</translation>
    </message>
    <message>
        <source>Program outline</source>
        <translation>プログラムのアウトライン</translation>
    </message>
    <message>
        <source>The blocks of the program; Enter or a click selects the block in the editor</source>
        <translation>プログラムのブロック。Enter またはクリックでエディターのブロックを選択します</translation>
    </message>
    <message>
        <source>Outline status</source>
        <translation>アウトラインの状態</translation>
    </message>
    <message>
        <source>No program yet.</source>
        <translation>プログラムはまだありません。</translation>
    </message>
    <message>
        <source>No outline: the program cannot be read.</source>
        <translation>アウトラインなし: プログラムを読み込めません。</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>%1 行目: %2</translation>
    </message>
    <message>
        <source>The program is empty.</source>
        <translation>プログラムは空です。</translation>
    </message>
</context>
<context>
    <name>hako::PdlEditor</name>
    <message>
        <source>Program editor</source>
        <translation>プログラムエディター</translation>
    </message>
</context>
<context>
    <name>hako::PdlLexer</name>
    <message>
        <source>Default</source>
        <translation>既定</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>コメント</translation>
    </message>
    <message>
        <source>Mapping key</source>
        <translation>マッピングのキー</translation>
    </message>
    <message>
        <source>Block kind</source>
        <translation>ブロックの種類</translation>
    </message>
    <message>
        <source>Common field</source>
        <translation>共通フィールド</translation>
    </message>
    <message>
        <source>Quoted string</source>
        <translation>引用符付き文字列</translation>
    </message>
    <message>
        <source>Number or constant</source>
        <translation>数値・定数</translation>
    </message>
    <message>
        <source>Expression</source>
        <translation>式</translation>
    </message>
    <message>
        <source>Expression delimiter</source>
        <translation>式の区切り</translation>
    </message>
    <message>
        <source>YAML punctuation</source>
        <translation>YAML の記号</translation>
    </message>
    <message>
        <source>Block scalar text</source>
        <translation>ブロックスカラーのテキスト</translation>
    </message>
    <message>
        <source>Document marker</source>
        <translation>ドキュメントマーカー</translation>
    </message>
    <message>
        <source>Template comment</source>
        <translation>テンプレートのコメント</translation>
    </message>
    <message>
        <source>Anchor, alias or tag</source>
        <translation>アンカー・エイリアス・タグ</translation>
    </message>
</context>
<context>
    <name>hako::PlaygroundLinks</name>
    <message>
        <source>The block that made call #%1 (%2, line %3), as the program says it now.</source>
        <translation>呼び出し #%1 を行ったブロック（%2、%3 行目）の、プログラムの現在の内容です。</translation>
    </message>
    <message>
        <source>Put the cursor in a model block to open it in the Playground</source>
        <translation>プレイグラウンドで開くには、カーソルを model ブロックの中に置いてください</translation>
    </message>
    <message>
        <source>The block cannot be rewritten: %1</source>
        <translation>ブロックを書き換えられません: %1</translation>
    </message>
    <message>
        <source>Saved the playground's prompt into the program (Ctrl+Z undoes it)</source>
        <translation>プレイグラウンドのプロンプトをプログラムに保存しました（Ctrl+Z で元に戻せます）</translation>
    </message>
    <message>
        <source>This prompt cannot be opened in the playground while the program has an error; correct it first</source>
        <translation>プログラムにエラーがあるため、このプロンプトをプレイグラウンドで開けません。先にエラーを直してください</translation>
    </message>
    <message>
        <source>The unsaved program this prompt came from has been closed, so there is nowhere to save it. Use Copy as PDL, or open the program again and use Try in Playground on its card.</source>
        <translation>このプロンプトの元になった未保存のプログラムは閉じられたため、保存先がありません。「PDL としてコピー」を使うか、プログラムを開き直してカードの「プレイグラウンドで試す」を使ってください。</translation>
    </message>
</context>
<context>
    <name>hako::PlaygroundPane</name>
    <message>
        <source>Playground</source>
        <translation>プレイグラウンド</translation>
    </message>
    <message>
        <source>Playground messages</source>
        <translation>プレイグラウンドのメッセージ</translation>
    </message>
    <message>
        <source>Open a call from the Prompt Log or a model block from the editor to try it here: edit its messages and parameters, compare variants side by side and run them over several inputs.</source>
        <translation>プロンプトログの呼び出しか、エディターの model ブロックを開くと、ここで試せます。メッセージとパラメーターを編集し、バリエーションを並べて比較し、複数の入力で実行できます。</translation>
    </message>
    <message>
        <source>Playground is empty</source>
        <translation>プレイグラウンドは空です</translation>
    </message>
    <message>
        <source>Add Variant</source>
        <translation>バリエーションを追加</translation>
    </message>
    <message>
        <source>Add variant</source>
        <translation>バリエーションを追加</translation>
    </message>
    <message>
        <source>Duplicate the last variant into a new column (up to %1)</source>
        <translation>最後のバリエーションを新しい列に複製します（最大 %1 個）</translation>
    </message>
    <message>
        <source>Repeat</source>
        <translation>繰り返し</translation>
    </message>
    <message>
        <source>Repeat each cell</source>
        <translation>各セルの繰り返し回数</translation>
    </message>
    <message>
        <source>Run each cell this many times to see how much the replies vary</source>
        <translation>各セルをこの回数だけ実行して、応答のばらつきを確かめます</translation>
    </message>
    <message>
        <source>Parallel</source>
        <translation>並列数</translation>
    </message>
    <message>
        <source>Calls in parallel</source>
        <translation>並列に実行する呼び出し数</translation>
    </message>
    <message>
        <source>How many calls run at once</source>
        <translation>同時に実行する呼び出しの数</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Run every variant over every input row (Ctrl+Return)</source>
        <translation>すべてのバリエーションをすべての入力行で実行します (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>実行をキャンセル</translation>
    </message>
    <message>
        <source>Run progress</source>
        <translation>実行の進行状況</translation>
    </message>
    <message>
        <source>%v of %m calls</source>
        <translation>%m 件中 %v 件の呼び出し</translation>
    </message>
    <message>
        <source>Variants</source>
        <translation>バリエーション</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>One row per input set, one column per variable; paste rows from a spreadsheet with Ctrl+V</source>
        <translation>1 行が 1 組の入力、1 列が 1 つの変数です。表計算ソフトの行を Ctrl+V で貼り付けられます</translation>
    </message>
    <message>
        <source>Add Row</source>
        <translation>行を追加</translation>
    </message>
    <message>
        <source>Add input row</source>
        <translation>入力行を追加</translation>
    </message>
    <message>
        <source>Remove Row</source>
        <translation>行を削除</translation>
    </message>
    <message>
        <source>Remove input row</source>
        <translation>入力行を削除</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Selected reply</source>
        <translation>選択した応答</translation>
    </message>
    <message>
        <source>Select a result to read its reply, compared word by word with the first variant's.</source>
        <translation>結果を選択すると、その応答が最初のバリエーションの応答と単語単位で比較して表示されます。</translation>
    </message>
    <message>
        <source>Cannot open this block in the playground: %1</source>
        <translation>このブロックはプレイグラウンドで開けません: %1</translation>
    </message>
    <message>
        <source>Write this variant back into the model block at %1:%2</source>
        <translation>このバリエーションを %1:%2 の model ブロックに書き戻します</translation>
    </message>
    <message>
        <source>Variant %1</source>
        <translation>バリエーション %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Variant %1 has no model: pick one.</source>
        <translation>バリエーション %1 にモデルがありません。選択してください。</translation>
    </message>
    <message>
        <source>Variant %1 has no messages: add one.</source>
        <translation>バリエーション %1 にメッセージがありません。追加してください。</translation>
    </message>
    <message>
        <source>No model provider is configured: set up a model endpoint in the settings.</source>
        <translation>モデルプロバイダーが設定されていません。設定でモデルの接続先を設定してください。</translation>
    </message>
    <message>
        <source>The prompt uses %1: fill in at least one row of the inputs table (or paste rows from a spreadsheet).</source>
        <translation>プロンプトは %1 を使います。入力表に少なくとも 1 行入力してください（表計算ソフトから行を貼り付けることもできます）。</translation>
    </message>
    <message>
        <source>Variant %1 copied as a PDL model block.</source>
        <translation>バリエーション %1 を PDL の model ブロックとしてコピーしました。</translation>
    </message>
    <message>
        <source>Compared with variant 1: removed words struck through, added words highlighted.</source>
        <translation>バリエーション 1 との比較: 削除された語は取り消し線、追加された語は強調表示されます。</translation>
    </message>
    <message>
        <source>Add Input Set</source>
        <translation>入力セットを追加</translation>
    </message>
    <message>
        <source>Add input set</source>
        <translation>入力セットを追加</translation>
    </message>
    <message>
        <source>Adds a row from an input set saved in the Prompt view</source>
        <translation>プロンプト表示で保存した入力セットから行を追加します</translation>
    </message>
    <message>
        <source>Input sets</source>
        <translation>入力セット</translation>
    </message>
    <message>
        <source>No saved input sets (Prompt view › Save Set…)</source>
        <translation>保存された入力セットはありません（プロンプト表示 › セットを保存…）</translation>
    </message>
    <message numerus="yes">
        <source>All %n Sets</source>
        <translation>
            <numerusform>全 %n セット</numerusform>
        </translation>
    </message>
    <message>
        <source>This call was sent to %1. The playground sends it to the server configured for its model instead; to use that server, add it in Model Settings.</source>
        <translation>この呼び出しは %1 に送られていました。プレイグラウンドでは、代わりにこのモデルに設定されたサーバーに送ります。そのサーバーを使うには、モデルの設定に追加してください。</translation>
    </message>
    <message numerus="yes">
        <source>Pasted %n row(s); the other inputs of the new rows are copied from the row above.</source>
        <translation>
            <numerusform>%n 行を貼り付けました。新しい行のほかの入力は、上の行からコピーしました。</numerusform>
        </translation>
    </message>
    <message>
        <source>This prompt did not come from a program, so there is nowhere to save it. To save a variant, open the prompt with Try in Playground on its card in the Prompt view.</source>
        <translation>このプロンプトはプログラムから開いたものではないため、保存先がありません。バリエーションを保存するには、プロンプト表示のカードの「プレイグラウンドで試す」から開いてください。</translation>
    </message>
    <message>
        <source>This prompt did not come from a program's model block, so there is nowhere to save it. Open it with Try in Playground on its card in the Prompt view, or use Copy as PDL.</source>
        <translation>このプロンプトはプログラムのモデル呼び出しから開いたものではないため、保存先がありません。プロンプト表示のカードの「プレイグラウンドで試す」から開くか、「PDL としてコピー」を使ってください。</translation>
    </message>
</context>
<context>
    <name>hako::PlaygroundSessions</name>
    <message>
        <source>Sessions</source>
        <translation>セッション</translation>
    </message>
    <message>
        <source>Reopen a saved playground session, start a new one or delete this one; sessions are saved as you work</source>
        <translation>保存したプレイグラウンドのセッションを開き直す、新しく始める、またはこのセッションを削除します。セッションは作業中に自動で保存されます</translation>
    </message>
    <message>
        <source>Saved sessions</source>
        <translation>保存したセッション</translation>
    </message>
    <message>
        <source>Session name</source>
        <translation>セッション名</translation>
    </message>
    <message>
        <source>Named after its prompt when first saved</source>
        <translation>最初に保存したときにプロンプト名から名付けられます</translation>
    </message>
    <message>
        <source>Playground</source>
        <translation>プレイグラウンド</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>this session</source>
        <translation>このセッション</translation>
    </message>
    <message>
        <source>Delete Session</source>
        <translation>セッションを削除</translation>
    </message>
    <message>
        <source>Delete the playground session “%1”? Its variants, inputs and results are removed from disk.</source>
        <translation>プレイグラウンドのセッション「%1」を削除しますか?バリアント、入力、結果がディスクから消えます。</translation>
    </message>
    <message>
        <source>No saved sessions yet</source>
        <translation>保存したセッションはまだありません</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1(%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n variant(s), %1</source>
        <translation>
            <numerusform>バリアント %n 件、%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n input row(s)</source>
        <translation>
            <numerusform>入力 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message numerus="yes">
        <source>%n session file(s) could not be read</source>
        <translation>
            <numerusform>%n 件のセッションファイルを読めませんでした</numerusform>
        </translation>
    </message>
    <message>
        <source>New Session</source>
        <translation>新しいセッション</translation>
    </message>
    <message>
        <source>Delete Session…</source>
        <translation>セッションを削除…</translation>
    </message>
</context>
<context>
    <name>hako::ProblemsView</name>
    <message>
        <source>Problems</source>
        <translation>問題</translation>
    </message>
    <message>
        <source>No problems</source>
        <translation>問題はありません</translation>
    </message>
    <message>
        <source>1 error</source>
        <translation>エラー 1 件</translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation>エラー %1 件</translation>
    </message>
    <message>
        <source>1 warning</source>
        <translation>警告 1 件</translation>
    </message>
    <message>
        <source>%1 warnings</source>
        <translation>警告 %1 件</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1、%2</translation>
    </message>
    <message>
        <source>Problems found while you type. Double-click one to go to it; Ctrl+. in the editor offers fixes.</source>
        <translation>入力中に見つかった問題です。ダブルクリックでその場所へ移動します。エディターで Ctrl+. を押すと修正案が表示されます。</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>問題</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>場所</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>メモ</translation>
    </message>
    <message>
        <source>Line %1, column %2</source>
        <translation>%1 行 %2 列</translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation>%1 行目</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation>詳細: %1</translation>
    </message>
    <message>
        <source>In the YAML: %1</source>
        <translation>YAML では %1</translation>
    </message>
</context>
<context>
    <name>hako::ProgramTabs</name>
    <message>
        <source>&amp;Close Program</source>
        <translation>プログラムを閉じる(&amp;C)</translation>
    </message>
    <message>
        <source>Close the program's tab (asks to save changes)</source>
        <translation>プログラムのタブを閉じます(変更の保存を確認します)</translation>
    </message>
    <message>
        <source>&amp;Next Program</source>
        <translation>次のプログラム(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Program</source>
        <translation>前のプログラム(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Split View</source>
        <translation>分割表示(&amp;S)</translation>
    </message>
    <message>
        <source>Show two programs side by side, each with its own run</source>
        <translation>2 つのプログラムを左右に並べて表示します(それぞれ別に実行できます)</translation>
    </message>
    <message>
        <source>&amp;Move Program to Other Side</source>
        <translation>プログラムを反対側へ移動(&amp;M)</translation>
    </message>
    <message>
        <source>Programs</source>
        <translation>プログラム</translation>
    </message>
    <message>
        <source>Programs on the right</source>
        <translation>右側のプログラム</translation>
    </message>
    <message>
        <source>Not saved yet</source>
        <translation>まだ保存されていません</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存の変更があります</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>Close %1</source>
        <translation>%1 を閉じる</translation>
    </message>
    <message>
        <source>Close %1 (Ctrl+W)</source>
        <translation>%1 を閉じる (Ctrl+W)</translation>
    </message>
</context>
<context>
    <name>hako::ProgramTarget</name>
    <message>
        <source>Make `%1` an input</source>
        <translation>`%1` を入力にする</translation>
    </message>
</context>
<context>
    <name>hako::PromptCard</name>
    <message>
        <source>Model call %1</source>
        <translation>モデル呼び出し %1</translation>
    </message>
    <message>
        <source>Sends everything above as the prompt.</source>
        <translation>ここより上のすべてをプロンプトとして送信します。</translation>
    </message>
    <message>
        <source>The prompt is computed by the program — see the YAML view.</source>
        <translation>プロンプトはプログラムが計算します — YAML 表示を確認してください。</translation>
    </message>
    <message>
        <source>Reply of %1</source>
        <translation>%1 の応答</translation>
    </message>
    <message>
        <source>model call at line %1</source>
        <translation>%1 行目のモデル呼び出し</translation>
    </message>
    <message>
        <source>Model call</source>
        <translation>モデル呼び出し</translation>
    </message>
    <message>
        <source>Try in Playground</source>
        <translation>プレイグラウンドで試す</translation>
    </message>
    <message>
        <source>Open this prompt in the playground with the inputs above, to try variants side by side</source>
        <translation>上の入力でこのプロンプトをプレイグラウンドで開き、バリアントを並べて試します</translation>
    </message>
    <message>
        <source>Try %1 in the playground</source>
        <translation>%1 をプレイグラウンドで試す</translation>
    </message>
    <message>
        <source>Pause Here</source>
        <translation>ここで一時停止</translation>
    </message>
    <message>
        <source>Debug Program (F6) pauses before this model call</source>
        <translation>プログラムのデバッグ (F6) で、このモデル呼び出しの前に一時停止します</translation>
    </message>
    <message>
        <source>Pause before %1</source>
        <translation>%1 の前で一時停止</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>モデル(&amp;M)</translation>
    </message>
    <message>
        <source>Model of %1</source>
        <translation>%1 のモデル</translation>
    </message>
    <message>
        <source>&amp;Temperature</source>
        <translation>温度(&amp;T)</translation>
    </message>
    <message>
        <source>default</source>
        <translation>既定</translation>
    </message>
    <message>
        <source>Temperature of %1</source>
        <translation>%1 の温度</translation>
    </message>
    <message>
        <source>Lower is more predictable, higher is more varied</source>
        <translation>低いほど予測しやすく、高いほど多様になります</translation>
    </message>
    <message>
        <source>Max &amp;tokens</source>
        <translation>最大トークン数(&amp;T)</translation>
    </message>
    <message>
        <source>Maximum reply length in tokens of %1</source>
        <translation>%1 の応答の最大長（トークン）</translation>
    </message>
    <message>
        <source>The longest reply the model may write, in tokens</source>
        <translation>モデルが書ける応答の最大長（トークン数）</translation>
    </message>
    <message>
        <source>&amp;Stop at</source>
        <translation>停止テキスト(&amp;S)</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>Stop texts of %1</source>
        <translation>%1 の停止テキスト</translation>
    </message>
    <message>
        <source>The reply ends where one of these texts would appear (in quotes, separated by commas; \n is a line break)</source>
        <translation>これらのテキストのいずれかが現れる位置で応答が終わります（引用符で囲み、カンマで区切ります。
 は改行です）</translation>
    </message>
    <message>
        <source>This call failed: %1</source>
        <translation>この呼び出しは失敗しました: %1</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Reply:</source>
        <translation>応答:</translation>
    </message>
    <message>
        <source>Reply (%1):</source>
        <translation>応答（%1）:</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Up</source>
        <translation>上へ</translation>
    </message>
    <message>
        <source>Move %1 up</source>
        <translation>%1 を上へ移動</translation>
    </message>
    <message>
        <source>Run this prompt one step earlier</source>
        <translation>このプロンプトを 1 つ前の手順で実行します</translation>
    </message>
    <message>
        <source>Down</source>
        <translation>下へ</translation>
    </message>
    <message>
        <source>Move %1 down</source>
        <translation>%1 を下へ移動</translation>
    </message>
    <message>
        <source>Run this prompt one step later</source>
        <translation>このプロンプトを 1 つ後の手順で実行します</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>名前を変更…</translation>
    </message>
    <message>
        <source>Rename %1</source>
        <translation>%1 の名前を変更</translation>
    </message>
    <message>
        <source>Give this prompt's result another name; every place that uses it follows</source>
        <translation>このプロンプトの結果の名前を変えます。結果を使っている箇所もすべて変わります</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>%1 を削除</translation>
    </message>
    <message>
        <source>Remove this prompt</source>
        <translation>このプロンプトを削除します</translation>
    </message>
</context>
<context>
    <name>hako::PromptExperiments</name>
    <message>
        <source>Experiments of this prompt</source>
        <translation>このプロンプトの実験</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>実験</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>データセット</translation>
    </message>
    <message>
        <source>Passed</source>
        <translation>合格</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>開始</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Double-click an experiment to see its results</source>
        <translation>実験をダブルクリックすると結果を表示します</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>第%1版</translation>
    </message>
    <message>
        <source>unsaved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>%1 v%2</source>
        <translation>%1 v%2</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 件中 %1 件</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>中止</translation>
    </message>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>No experiments yet: choose two versions and click Run on Dataset.</source>
        <translation>実験はまだありません。二つの版を選んで「データセットで実行」をクリックしてください。</translation>
    </message>
</context>
<context>
    <name>hako::PromptLogPane</name>
    <message>
        <source>&amp;Refresh</source>
        <translation>再読み込み(&amp;R)</translation>
    </message>
    <message>
        <source>Prompt log</source>
        <translation>プロンプトログ</translation>
    </message>
    <message>
        <source>Search messages and replies…</source>
        <translation>メッセージと応答を検索…</translation>
    </message>
    <message>
        <source>Search calls</source>
        <translation>呼び出しを検索</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>Prompt filter</source>
        <translation>プロンプトで絞り込み</translation>
    </message>
    <message>
        <source>The prompt's name; * matches any run of characters</source>
        <translation>プロンプトの名前。* は任意の文字列に一致します</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Model filter</source>
        <translation>モデルで絞り込み</translation>
    </message>
    <message>
        <source>The model's name; * matches any run of characters</source>
        <translation>モデルの名前。* は任意の文字列に一致します</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>タグ</translation>
    </message>
    <message>
        <source>Tag filter</source>
        <translation>タグで絞り込み</translation>
    </message>
    <message>
        <source>Tags a call must all carry, separated by spaces or commas</source>
        <translation>呼び出しがすべて持つべきタグ。スペースまたはカンマで区切ります</translation>
    </message>
    <message>
        <source>Status filter</source>
        <translation>状態で絞り込み</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>すべての状態</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Time range</source>
        <translation>期間</translation>
    </message>
    <message>
        <source>Any time</source>
        <translation>全期間</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>過去 1 時間</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>過去 24 時間</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>過去 7 日間</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>過去 30 日間</translation>
    </message>
    <message>
        <source>Only calls started within this time; the charts and the tokens over time cover it (any time: the last 30 days)</source>
        <translation>この期間に開始した呼び出しだけを表示します。グラフとトークン数の推移もこの期間が対象です（全期間: 過去 30 日間）</translation>
    </message>
    <message>
        <source>Choose tags</source>
        <translation>タグを選択</translation>
    </message>
    <message>
        <source>Check the tags the calls must carry</source>
        <translation>呼び出しが持つべきタグにチェックを付けます</translation>
    </message>
    <message>
        <source>Tags in the log</source>
        <translation>ログにあるタグ</translation>
    </message>
    <message>
        <source>Refresh prompt log</source>
        <translation>プロンプトログを再読み込み</translation>
    </message>
    <message>
        <source>List the calls again (Ctrl+R)</source>
        <translation>呼び出しを一覧し直します (Ctrl+R)</translation>
    </message>
    <message>
        <source>Calls shown</source>
        <translation>表示中の呼び出し</translation>
    </message>
    <message>
        <source>Model calls</source>
        <translation>モデルの呼び出し</translation>
    </message>
    <message>
        <source>Prompt log status</source>
        <translation>プロンプトログの状態</translation>
    </message>
    <message>
        <source>Call detail</source>
        <translation>呼び出しの詳細</translation>
    </message>
    <message>
        <source>Select a call to see its messages, reply and usage.</source>
        <translation>呼び出しを選択すると、メッセージ、応答、使用量が表示されます。</translation>
    </message>
    <message>
        <source>Show in &amp;Trace</source>
        <translation>トレースで表示(&amp;T)</translation>
    </message>
    <message>
        <source>Show in Trace</source>
        <translation>トレースで表示</translation>
    </message>
    <message>
        <source>Open the run's trace at this call</source>
        <translation>この呼び出しの位置で実行のトレースを開きます</translation>
    </message>
    <message>
        <source>Show &amp;Source</source>
        <translation>ソースを表示(&amp;S)</translation>
    </message>
    <message>
        <source>Show Source</source>
        <translation>ソースを表示</translation>
    </message>
    <message>
        <source>Open the program at the model block that made this call</source>
        <translation>この呼び出しを行った model ブロックの位置でプログラムを開きます</translation>
    </message>
    <message>
        <source>Open in &amp;Playground</source>
        <translation>プレイグラウンドで開く(&amp;P)</translation>
    </message>
    <message>
        <source>Open in Playground</source>
        <translation>プレイグラウンドで開く</translation>
    </message>
    <message>
        <source>Edit this call's messages and parameters, switch the model and run it again</source>
        <translation>この呼び出しのメッセージとパラメーターを編集し、モデルを切り替えて再実行します</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>呼び出し</translation>
    </message>
    <message>
        <source>Group statistics by</source>
        <translation>統計のグループ化</translation>
    </message>
    <message>
        <source>By prompt</source>
        <translation>プロンプト別</translation>
    </message>
    <message>
        <source>By tag</source>
        <translation>タグ別</translation>
    </message>
    <message>
        <source>By model</source>
        <translation>モデル別</translation>
    </message>
    <message>
        <source>By day (UTC)</source>
        <translation>日別 (UTC)</translation>
    </message>
    <message>
        <source>Call statistics</source>
        <translation>呼び出しの統計</translation>
    </message>
    <message>
        <source>&amp;Group:</source>
        <translation>グループ(&amp;G):</translation>
    </message>
    <message>
        <source>Success rate</source>
        <translation>成功率</translation>
    </message>
    <message>
        <source>Mean latency</source>
        <translation>平均レイテンシ</translation>
    </message>
    <message>
        <source>Tokens (in + out)</source>
        <translation>トークン数（入力＋出力）</translation>
    </message>
    <message>
        <source>Over Time</source>
        <translation>推移</translation>
    </message>
    <message>
        <source>Prompt log views</source>
        <translation>プロンプトログの表示</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <source>The prompt log cannot be read: %1</source>
        <translation>プロンプトログを読み込めません: %1</translation>
    </message>
    <message>
        <source>1 call</source>
        <translation>呼び出し 1 件</translation>
    </message>
    <message>
        <source>%1 calls</source>
        <translation>呼び出し %1 件</translation>
    </message>
    <message>
        <source>%1 of %2 calls match</source>
        <translation>%2 件中 %1 件の呼び出しが一致</translation>
    </message>
    <message>
        <source>No model calls logged yet. Run a program that calls a model; every call appears here.</source>
        <translation>モデルの呼び出しはまだ記録されていません。モデルを呼び出すプログラムを実行すると、すべての呼び出しがここに表示されます。</translation>
    </message>
    <message>
        <source>No calls match the filters.</source>
        <translation>絞り込み条件に一致する呼び出しはありません。</translation>
    </message>
    <message>
        <source>This call cannot be read: %1</source>
        <translation>この呼び出しを読み込めません: %1</translation>
    </message>
    <message>
        <source>No tags in the log yet</source>
        <translation>ログにはまだタグがありません</translation>
    </message>
    <message>
        <source>day</source>
        <translation>日</translation>
    </message>
    <message>
        <source>5 minutes</source>
        <translation>5 分</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>時間</translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation>6 時間</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>呼び出し</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>接続先</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>プログラム</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>実行</translation>
    </message>
    <message>
        <source>Only this call's metadata was kept (privacy rules): no messages or reply.</source>
        <translation>プライバシー規則により、この呼び出しはメタデータのみ保存されています（メッセージと応答はありません）。</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>応答</translation>
    </message>
    <message>
        <source>Tool calls</source>
        <translation>ツール呼び出し</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>パラメーター</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>使用量</translation>
    </message>
    <message>
        <source>Tokens in</source>
        <translation>入力トークン</translation>
    </message>
    <message>
        <source>Tokens out</source>
        <translation>出力トークン</translation>
    </message>
    <message>
        <source>Cached tokens</source>
        <translation>キャッシュ済みトークン</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>レイテンシ</translation>
    </message>
    <message>
        <source>First token after</source>
        <translation>最初のトークンまで</translation>
    </message>
    <message>
        <source>Finish reason</source>
        <translation>終了理由</translation>
    </message>
    <message>
        <source>Retries</source>
        <translation>再試行</translation>
    </message>
    <message>
        <source>Add to &amp;Dataset</source>
        <translation>データセットに追加(&amp;D)</translation>
    </message>
    <message>
        <source>Add to Dataset</source>
        <translation>データセットに追加</translation>
    </message>
    <message>
        <source>Add the selected calls as examples of the dataset open in the Datasets pane: their inputs, and their replies as the references</source>
        <translation>選んだ呼び出しを「データセット」ペインで開いているデータセットに例として追加します（入力と、参照としての応答）</translation>
    </message>
    <message>
        <source>Left out calls without their text: #%1</source>
        <translation>本文のない呼び出しは除外しました: #%1</translation>
    </message>
    <message>
        <source>Origin filter</source>
        <translation>呼び出し元の絞り込み</translation>
    </message>
    <message>
        <source>Where the calls come from</source>
        <translation>呼び出しの発生元</translation>
    </message>
    <message>
        <source>Any origin</source>
        <translation>すべての発生元</translation>
    </message>
    <message>
        <source>Programs</source>
        <translation>プログラム</translation>
    </message>
    <message>
        <source>Judges</source>
        <translation>評価モデル</translation>
    </message>
    <message>
        <source>Playground</source>
        <translation>プレイグラウンド</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>実験</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>受信</translation>
    </message>
    <message>
        <source>By program</source>
        <translation>プログラム別</translation>
    </message>
    <message>
        <source>By version</source>
        <translation>版別</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>発生元</translation>
    </message>
    <message>
        <source>Every word (or "quoted phrase") must occur in the messages or the reply; ignores ASCII case. scored, score:✓ and score:✗ find the calls with a score, one that passed, one that failed</source>
        <translation>すべての単語（または "引用符で囲んだ語句"）がメッセージか返信に含まれるものを探します。英字の大文字・小文字は区別しません。scored、score:✓、score:✗ で、スコアのある呼び出し、合格した呼び出し、不合格の呼び出しを探せます</translation>
    </message>
    <message>
        <source>A&amp;nnotate…</source>
        <translation>注釈を付ける(&amp;N)…</translation>
    </message>
    <message>
        <source>Annotate call</source>
        <translation>呼び出しに注釈を付ける</translation>
    </message>
    <message>
        <source>Score this call (✓, ✗, a number or a label) and note why; the score is kept with the call in the prompt log</source>
        <translation>この呼び出しを採点し（✓、✗、数値、ラベル）、理由をメモします。スコアはプロンプトログに呼び出しと一緒に保存されます</translation>
    </message>
    <message>
        <source>The score was not kept: %1</source>
        <translation>スコアを保存できませんでした: %1</translation>
    </message>
    <message>
        <source>Score kept with the call</source>
        <translation>スコアを呼び出しと一緒に保存しました</translation>
    </message>
    <message>
        <source>Answered by</source>
        <translation>応答したモデル</translation>
    </message>
</context>
<context>
    <name>hako::PromptMessageEdit</name>
    <message>
        <source>%1: a value computed by the program</source>
        <translation>%1: プログラムが計算する値</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>hako::PromptNameField</name>
    <message>
        <source>Name:</source>
        <translation>名前:</translation>
    </message>
    <message>
        <source>Prompt name</source>
        <translation>プロンプト名</translation>
    </message>
    <message>
        <source>What the prompt log, the library and the experiments call this prompt</source>
        <translation>プロンプトログ、ライブラリ、実験でこのプロンプトを呼ぶ名前</translation>
    </message>
    <message>
        <source>Name this prompt</source>
        <translation>このプロンプトに名前を付ける</translation>
    </message>
</context>
<context>
    <name>hako::PromptValueEdit</name>
    <message>
        <source>Value %1</source>
        <translation>値 %1</translation>
    </message>
    <message>
        <source>Yes when checked</source>
        <translation>チェックを入れると「はい」です</translation>
    </message>
    <message>
        <source>One field per line, as name: type</source>
        <translation>1 行に 1 項目、名前: 型 の形で</translation>
    </message>
    <message>
        <source>A list: one item per line</source>
        <translation>リスト：1 行に 1 項目</translation>
    </message>
    <message>
        <source>One field per line, as “name: type” (types: string, integer, number, boolean)</source>
        <translation>1 行に 1 項目、「名前: 型」の形で書きます（型：string＝文字列、integer＝整数、number＝数値、boolean＝はい／いいえ）</translation>
    </message>
    <message>
        <source>One item per line; empty lines are left out</source>
        <translation>1 行に 1 項目。空の行は無視されます</translation>
    </message>
    <message>
        <source>One field per line: name: type (string, integer, number, boolean)</source>
        <translation>1 行に 1 項目：名前: 型（string、integer、number、boolean）</translation>
    </message>
    <message>
        <source>One item per line</source>
        <translation>1 行に 1 項目</translation>
    </message>
</context>
<context>
    <name>hako::PromptView</name>
    <message>
        <source>Instructions (system)</source>
        <translation>指示（system）</translation>
    </message>
    <message>
        <source>Model says (assistant)</source>
        <translation>モデルの発言（assistant）</translation>
    </message>
    <message>
        <source>You say (user)</source>
        <translation>あなたの発言（user）</translation>
    </message>
    <message>
        <source>Prompt view</source>
        <translation>プロンプト表示</translation>
    </message>
    <message>
        <source>YAML problem</source>
        <translation>YAML の問題</translation>
    </message>
    <message>
        <source>Prompt document</source>
        <translation>プロンプト文書</translation>
    </message>
    <message>
        <source>The YAML has an error on line %1 — fix it in the YAML view.</source>
        <translation>YAML の %1 行目にエラーがあります — YAML 表示で修正してください。</translation>
    </message>
    <message>
        <source>This program has no prompts yet. Write one in the YAML view (Ctrl+Shift+Y).</source>
        <translation>このプログラムにはまだプロンプトがありません。YAML 表示 (Ctrl+Shift+Y) で書いてください。</translation>
    </message>
    <message>
        <source>Value %1</source>
        <translation>値 %1</translation>
    </message>
    <message>
        <source>%1 message</source>
        <translation>%1 メッセージ</translation>
    </message>
    <message>
        <source>%1 message of %2</source>
        <translation>%2 の %1 メッセージ</translation>
    </message>
    <message>
        <source>%1 text at line %2</source>
        <translation>%2 行目の %1 テキスト</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>Text at line %1</source>
        <translation>%1 行目のテキスト</translation>
    </message>
    <message>
        <source>Text %1</source>
        <translation>テキスト %1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Shows or hides the steps inside</source>
        <translation>内部のステップを表示または非表示にします</translation>
    </message>
    <message>
        <source>This change could not be made here: %1</source>
        <translation>ここではこの変更を行えませんでした: %1</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>Length of %1</source>
        <translation>%1 の長さ</translation>
    </message>
    <message>
        <source>1 character</source>
        <translation>1 文字</translation>
    </message>
    <message>
        <source>%1 characters</source>
        <translation>%1 文字</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 トークン</translation>
    </message>
    <message>
        <source>Line %1: %2. Fix it in the YAML view (Ctrl+Shift+Y).</source>
        <translation>%1 行目: %2。YAML 表示(Ctrl+Shift+Y)で直してください。</translation>
    </message>
    <message>
        <source>Write here what the model should do.</source>
        <translation>モデルにしてほしいことをここに書いてください。</translation>
    </message>
    <message>
        <source>The result of the prompt above: %1</source>
        <translation>上のプロンプトの結果：%1</translation>
    </message>
    <message>
        <source>Rename Prompt</source>
        <translation>プロンプトの名前を変更</translation>
    </message>
    <message>
        <source>New name for the result of this prompt (every place that uses it follows):</source>
        <translation>このプロンプトの結果の新しい名前（使っている箇所もすべて変わります）：</translation>
    </message>
    <message>
        <source>Remove the prompt “%1”?</source>
        <translation>プロンプト「%1」を削除しますか？</translation>
    </message>
    <message>
        <source>Remove the prompt “%1”? Other steps use its result (line %2); they will not find it any more.</source>
        <translation>プロンプト「%1」を削除しますか？ほかの手順がその結果を使っています（%2 行目）。削除すると、その手順は結果を見つけられなくなります。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Remove Prompt</source>
        <translation>プロンプトを削除</translation>
    </message>
    <message>
        <source>Add Prompt</source>
        <translation>プロンプトを追加</translation>
    </message>
    <message>
        <source>Add a model call after the last step; it can use the results above</source>
        <translation>最後の手順のあとにモデル呼び出しを追加します。上の結果を使えます</translation>
    </message>
</context>
<context>
    <name>hako::QuickFixMenu</name>
    <message>
        <source>Quick Fix…</source>
        <translation>クイック修正…</translation>
    </message>
    <message>
        <source>Show the fixes for the problems on the cursor's line</source>
        <translation>カーソル行の問題の修正案を表示</translation>
    </message>
    <message>
        <source>Quick fixes</source>
        <translation>クイック修正</translation>
    </message>
    <message>
        <source>No quick fixes here</source>
        <translation>ここには修正案がありません</translation>
    </message>
</context>
<context>
    <name>hako::RetrievalView</name>
    <message>
        <source>Retrievals</source>
        <translation>検索履歴</translation>
    </message>
    <message>
        <source>Retrieval candidates</source>
        <translation>検索の候補</translation>
    </message>
    <message>
        <source>Retrieval mode</source>
        <translation>検索モード</translation>
    </message>
    <message>
        <source>Number of memories (k)</source>
        <translation>メモリの件数 (k)</translation>
    </message>
    <message>
        <source>Recency decay</source>
        <translation>新しさの減衰</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>モード</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>Decay</source>
        <translation>減衰</translation>
    </message>
    <message>
        <source>%1 weight</source>
        <translation>%1 の重み</translation>
    </message>
    <message>
        <source>What if…</source>
        <translation>試しに検索…</translation>
    </message>
    <message>
        <source>Re-run this retrieval with these parameters without touching the store</source>
        <translation>ストアを変更せずに、このパラメーターで検索をやり直します</translation>
    </message>
    <message>
        <source>Original</source>
        <translation>元の条件</translation>
    </message>
    <message>
        <source>(no query)</source>
        <translation>（クエリなし）</translation>
    </message>
    <message>
        <source>Made by trace node %1 (run %2); click to select it in the trace</source>
        <translation>トレースのノード %1（実行 %2）によるものです。クリックでトレース上で選択します</translation>
    </message>
    <message>
        <source>%1 candidates, %2 in the prompt%3</source>
        <translation>候補 %1 件、プロンプトに %2 件%3</translation>
    </message>
    <message>
        <source> (approximate index)</source>
        <translation>（近似索引）</translation>
    </message>
    <message>
        <source>What-if: added %1; removed %2; moved %3</source>
        <translation>試しに検索した結果: 追加 %1、削除 %2、移動 %3</translation>
    </message>
    <message>
        <source>Recency</source>
        <translation>新しさ</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要度</translation>
    </message>
    <message>
        <source>Relevance</source>
        <translation>関連度</translation>
    </message>
</context>
<context>
    <name>hako::RunActions</name>
    <message>
        <source>&amp;Run Program</source>
        <translation>プログラムを実行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the program in the editor (F5)</source>
        <translation>エディターのプログラムを実行します (F5)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;Trace As…</source>
        <translation>名前を付けてトレースを保存(&amp;T)…</translation>
    </message>
    <message>
        <source>Save Trace</source>
        <translation>トレースを保存</translation>
    </message>
    <message>
        <source>Traces (*.json)</source>
        <translation>トレース (*.json)</translation>
    </message>
    <message>
        <source>Run Code Blocks in a &amp;Sandbox</source>
        <translation>コードブロックをサンドボックスで実行(&amp;S)</translation>
    </message>
    <message>
        <source>Run python and command blocks under bubblewrap: no network, read-only files</source>
        <translation>python と command ブロックを bubblewrap の下で実行します（ネットワークなし、ファイルは読み取り専用）</translation>
    </message>
    <message>
        <source>Run &amp;Tags…</source>
        <translation>実行タグ(&amp;T)…</translation>
    </message>
    <message>
        <source>Tags the prompt log gives the model calls of this window's runs</source>
        <translation>このウィンドウでの実行のモデル呼び出しに、プロンプトログが付けるタグ</translation>
    </message>
    <message>
        <source>Run Tags</source>
        <translation>実行タグ</translation>
    </message>
    <message>
        <source>Tags for the model calls of the next runs, separated by spaces or commas
(for example prompt:summary env:test). The Prompt Log filters by them.</source>
        <translation>次回以降の実行でモデル呼び出しに付けるタグ（スペースまたはカンマ区切り、
例: prompt:summary env:test）。プロンプトログで絞り込みに使えます。</translation>
    </message>
    <message>
        <source>&amp;Forget Trusted Folders</source>
        <translation>信頼したフォルダーを忘れる(&amp;F)</translation>
    </message>
    <message>
        <source>Programs will ask again before running code</source>
        <translation>コードを実行する前に、再び確認するようになります</translation>
    </message>
    <message>
        <source>Runs are not tagged</source>
        <translation>実行にタグは付きません</translation>
    </message>
    <message>
        <source>Runs are tagged %1</source>
        <translation>実行にタグ %1 を付けます</translation>
    </message>
    <message>
        <source>The prompt log: %1</source>
        <translation>プロンプトログ: %1</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>実行中…</translation>
    </message>
    <message>
        <source>Run finished</source>
        <translation>実行が完了しました</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>停止しました</translation>
    </message>
    <message>
        <source>Run failed</source>
        <translation>実行に失敗しました</translation>
    </message>
    <message>
        <source>Configure models…</source>
        <translation>モデルを設定…</translation>
    </message>
    <message>
        <source>Line %1, column %2: </source>
        <translation>%1 行 %2 列: </translation>
    </message>
    <message>
        <source>There is no run whose trace could be saved.</source>
        <translation>保存できるトレースのある実行がありません。</translation>
    </message>
    <message>
        <source>Cannot save the trace to %1: %2</source>
        <translation>トレースを %1 に保存できません: %2</translation>
    </message>
    <message>
        <source>Saved trace %1</source>
        <translation>トレース %1 を保存しました</translation>
    </message>
    <message>
        <source>Run the program first: Re-run from Here replays that run up to the block.</source>
        <translation>先にプログラムを実行してください。「ここから再実行」はその実行をブロックの手前まで再生します。</translation>
    </message>
    <message>
        <source>Re-running from %1 (what came before is replayed)…</source>
        <translation>%1 から再実行中（それより前は再生）…</translation>
    </message>
    <message>
        <source>Cannot re-run from here: %1</source>
        <translation>ここから再実行できません: %1</translation>
    </message>
    <message>
        <source>Re-run from &amp;Selected Block</source>
        <translation>選択したブロックから再実行(&amp;S)</translation>
    </message>
    <message>
        <source>Run the program again: what came before the block selected in the trace is replayed from the last run, the block and the rest run live</source>
        <translation>プログラムをもう一度実行します。トレースで選択したブロックより前は前回の実行から再生し、そのブロックと以降は実際に実行します</translation>
    </message>
    <message>
        <source>the previous run</source>
        <translation>前回の実行</translation>
    </message>
    <message>
        <source>run %1</source>
        <translation>実行 %1</translation>
    </message>
    <message>
        <source>Forked from %1: the program changed at line %2 since that run, so it was replayed up to there and the rest ran live.</source>
        <translation>%1 から分岐しました。その実行の後に %2 行目でプログラムが変わったため、そこまでを再生し、残りは実際に実行しました。</translation>
    </message>
    <message>
        <source>Forked from %1 at line %2: what came before was replayed from that run, the rest ran live.</source>
        <translation>%1 から %2 行目で分岐しました。それより前はその実行から再生し、残りは実際に実行しました。</translation>
    </message>
    <message>
        <source>re-run from line %1</source>
        <translation>%1 行目からの再実行</translation>
    </message>
    <message>
        <source>Compare with the Original</source>
        <translation>元の実行と比較</translation>
    </message>
</context>
<context>
    <name>hako::RunController</name>
    <message>
        <source>the program could not be read</source>
        <translation>プログラムを読み込めませんでした</translation>
    </message>
    <message>
        <source>a run is going</source>
        <translation>実行中です</translation>
    </message>
    <message>
        <source>no block '%1' in the trace</source>
        <translation>トレースにブロック「%1」がありません</translation>
    </message>
    <message>
        <source>the run is not paused before a model call</source>
        <translation>モデル呼び出しの前で一時停止していません</translation>
    </message>
    <message>
        <source>no variable name</source>
        <translation>変数名がありません</translation>
    </message>
    <message>
        <source>untitled.pdl</source>
        <translation>無題.pdl</translation>
    </message>
    <message>
        <source>The breakpoint on line %1 of %2 is not set: %3</source>
        <translation>%2 の %1 行目のブレークポイントは設定していません: %3</translation>
    </message>
</context>
<context>
    <name>hako::RunTrustCheck</name>
    <message>
        <source>Python code at %1</source>
        <translation>%1 の Python コード</translation>
    </message>
    <message>
        <source>a command at %1</source>
        <translation>%1 のコマンド</translation>
    </message>
    <message>
        <source>a program built at run time at %1</source>
        <translation>%1 の、実行時に組み立てられるプログラム</translation>
    </message>
    <message>
        <source>an include that cannot be checked (%1) at %2</source>
        <translation>%2 の、確認できない include (%1)</translation>
    </message>
    <message>
        <source>model requests to a server chosen at run time at %1</source>
        <translation>%1 の、実行時に決まるサーバーへのモデル要求</translation>
    </message>
    <message>
        <source>model requests to %1 at %2</source>
        <translation>%2 の、%1 へのモデル要求</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… ほか %1 件</translation>
    </message>
</context>
<context>
    <name>hako::RunsLinks</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Cannot compare: run %1 is no longer available</source>
        <translation>比較できません: 実行 %1 はもうありません</translation>
    </message>
    <message>
        <source>Cannot open the prompt log: %1</source>
        <translation>プロンプトログを開けません: %1</translation>
    </message>
    <message>
        <source>Cannot read the prompt log: %1</source>
        <translation>プロンプトログを読めません: %1</translation>
    </message>
    <message numerus="yes">
        <source>Prompt log %1: %n run(s); pick one to read its calls</source>
        <translation>
            <numerusform>プロンプトログ %1: 実行 %n 件。選ぶと呼び出しを読めます</numerusform>
        </translation>
    </message>
    <message>
        <source>The prompt log no longer holds run %1</source>
        <translation>プロンプトログに実行 %1 はもうありません</translation>
    </message>
    <message>
        <source>%1 (prompt log)</source>
        <translation>%1(プロンプトログ)</translation>
    </message>
</context>
<context>
    <name>hako::ScoreChartPanel</name>
    <message>
        <source>Mean score</source>
        <translation>平均スコア</translation>
    </message>
    <message>
        <source>Scores of</source>
        <translation>スコアの対象</translation>
    </message>
    <message>
        <source>The evaluator (or people's annotations) whose scores the chart shows</source>
        <translation>グラフに表示するスコアの評価方法（または人による注釈）</translation>
    </message>
    <message>
        <source>Scores status</source>
        <translation>スコアの状態</translation>
    </message>
    <message>
        <source>No scores yet — annotate a call (select it, then Annotate…) or let online evaluation score the calls that arrive.</source>
        <translation>まだスコアはありません。呼び出しを選んで「注釈を付ける…」を押すか、オンライン評価で届いた呼び出しを採点してください。</translation>
    </message>
    <message>
        <source>S&amp;cores of:</source>
        <translation>スコアの対象(&amp;C):</translation>
    </message>
    <message>
        <source>People (annotations)</source>
        <translation>人（注釈）</translation>
    </message>
</context>
<context>
    <name>hako::ShapeLinks</name>
    <message>
        <source>Graph</source>
        <translation>グラフ</translation>
    </message>
    <message>
        <source>Flame</source>
        <translation>フレーム</translation>
    </message>
</context>
<context>
    <name>hako::ShapeSource</name>
    <message>
        <source>%1 tokens</source>
        <translation>%1 トークン</translation>
    </message>
    <message>
        <source>cost %1</source>
        <translation>コスト %1</translation>
    </message>
    <message>
        <source>no token counts</source>
        <translation>トークン数の記録なし</translation>
    </message>
    <message numerus="yes">
        <source>%n model call(s)</source>
        <translation>
            <numerusform>モデル呼び出し %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tool call(s)</source>
        <translation>
            <numerusform>ツール呼び出し %n 件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>失敗 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Run total: %1</source>
        <translation>実行の合計: %1</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>エージェント</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>ツール</translation>
    </message>
    <message>
        <source>Model call</source>
        <translation>モデル呼び出し</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>Run a program or open a trace to see its shape</source>
        <translation>プログラムを実行するか、トレースを開くと、その構造が表示されます</translation>
    </message>
</context>
<context>
    <name>hako::StartPage</name>
    <message>
        <source>&amp;Test</source>
        <translation>テスト(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Use This Server</source>
        <translation>このサーバーを使う(&amp;U)</translation>
    </message>
    <message>
        <source>Show this page when Hako starts without a file</source>
        <translation>ファイルを指定せずに Hako を起動したときにこのページを表示する</translation>
    </message>
    <message>
        <source>Getting started</source>
        <translation>はじめに</translation>
    </message>
    <message>
        <source>Welcome to Hako</source>
        <translation>Hako へようこそ</translation>
    </message>
    <message>
        <source>Write prompts, run them, and see what the model was asked and answered. Where would you like to start?</source>
        <translation>プロンプトを書いて実行し、モデルに何を尋ね、何が返ってきたかを確かめられます。どこから始めますか？</translation>
    </message>
    <message>
        <source>Write a prompt</source>
        <translation>プロンプトを書く</translation>
    </message>
    <message>
        <source>Start from a template: summarise, classify, translate, extract JSON, chat…</source>
        <translation>テンプレートから始めます: 要約、分類、翻訳、JSON の抽出、チャット…</translation>
    </message>
    <message>
        <source>Debug a run</source>
        <translation>実行をデバッグする</translation>
    </message>
    <message>
        <source>Open an example program, run it (F5) and click its boxes to see what each step did</source>
        <translation>サンプルプログラムを開いて実行 (F5) し、ボックスをクリックして各ステップの動きを確かめます</translation>
    </message>
    <message>
        <source>Explore a document</source>
        <translation>文書を調べる</translation>
    </message>
    <message>
        <source>Open a text or PDF and search it the way a model does</source>
        <translation>テキストや PDF を開き、モデルと同じ方法で検索します</translation>
    </message>
    <message>
        <source>Connect a model</source>
        <translation>モデルに接続する</translation>
    </message>
    <message>
        <source>Ollama on this computer</source>
        <translation>このコンピューターの Ollama</translation>
    </message>
    <message>
        <source>Look Again</source>
        <translation>もう一度探す</translation>
    </message>
    <message>
        <source>Look for Ollama again</source>
        <translation>Ollama をもう一度探す</translation>
    </message>
    <message>
        <source>Server URL</source>
        <translation>サーバーの URL</translation>
    </message>
    <message>
        <source>https://api.openai.com/v1 or http://localhost:8000/v1</source>
        <translation>https://api.openai.com/v1 または http://localhost:8000/v1</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <source>API key (if the server needs one)</source>
        <translation>API キー（サーバーが必要とする場合）</translation>
    </message>
    <message>
        <source>Test the server</source>
        <translation>サーバーをテスト</translation>
    </message>
    <message>
        <source>Use This Server</source>
        <translation>このサーバーを使う</translation>
    </message>
    <message>
        <source>Keep this server in your model settings, its key in the keyring, and make its first model the default</source>
        <translation>このサーバーをモデル設定に、キーをキーリングに保存し、最初のモデルを既定にします</translation>
    </message>
    <message>
        <source>What the server answered</source>
        <translation>サーバーの応答</translation>
    </message>
    <message>
        <source>All Model Settings…</source>
        <translation>モデルのすべての設定…</translation>
    </message>
    <message>
        <source>All Model Settings</source>
        <translation>モデルのすべての設定</translation>
    </message>
    <message>
        <source>Ollama:</source>
        <translation>Ollama:</translation>
    </message>
    <message>
        <source>Or a server:</source>
        <translation>またはサーバー:</translation>
    </message>
    <message>
        <source>Go to the &amp;Editor</source>
        <translation>エディターへ(&amp;E)</translation>
    </message>
    <message>
        <source>Go to the Editor</source>
        <translation>エディターへ</translation>
    </message>
    <message>
        <source>Looking for Ollama at %1 …</source>
        <translation>%1 で Ollama を探しています…</translation>
    </message>
    <message>
        <source>Ollama is not running on this computer (nothing answered at %1). Start it with `ollama serve`, or use a server below.</source>
        <translation>このコンピューターでは Ollama が動いていません（%1 から応答がありません）。`ollama serve` で起動するか、下のサーバーを使ってください。</translation>
    </message>
    <message>
        <source>Ollama is running but has no models yet: `ollama pull granite3.2:8b` fetches one.</source>
        <translation>Ollama は動いていますが、モデルがまだありません。`ollama pull granite3.2:8b` で取得できます。</translation>
    </message>
    <message numerus="yes">
        <source>Ollama is running with %n model(s): %1. Programs use them as ollama/NAME.</source>
        <translation>
            <numerusform>Ollama が %n 個のモデルで動いています: %1。プログラムからは ollama/名前 で使えます。</numerusform>
        </translation>
    </message>
    <message>
        <source>Type the server's address, starting with http:// or https://.</source>
        <translation>http:// または https:// で始まるサーバーのアドレスを入力してください。</translation>
    </message>
    <message>
        <source>Asking %1 …</source>
        <translation>%1 に問い合わせ中…</translation>
    </message>
    <message>
        <source>The server did not answer: %1</source>
        <translation>サーバーが応答しませんでした: %1</translation>
    </message>
    <message numerus="yes">
        <source>Connected: %n model(s) answered: %1.</source>
        <translation>
            <numerusform>接続しました。%n 個のモデルが応答しました: %1。</numerusform>
        </translation>
    </message>
    <message>
        <source>Your model settings cannot be read: %1</source>
        <translation>モデル設定を読み込めません: %1</translation>
    </message>
    <message>
        <source>Your model settings cannot be saved: %1</source>
        <translation>モデル設定を保存できません: %1</translation>
    </message>
    <message>
        <source>Programs can now use %1/%2 (and `model: default`).</source>
        <translation>プログラムから %1/%2（および `model: default`）を使えるようになりました。</translation>
    </message>
    <message>
        <source>Recent prompts</source>
        <translation>最近のプロンプト</translation>
    </message>
    <message>
        <source>Connected server</source>
        <translation>接続中のサーバー</translation>
    </message>
    <message>
        <source>Store the key in a file</source>
        <translation>キーをファイルに保存する</translation>
    </message>
    <message>
        <source>Connected:</source>
        <translation>接続中:</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>%1 を開く</translation>
    </message>
    <message>
        <source>%1 (%2): asking for its models …</source>
        <translation>%1（%2）: モデルを問い合わせています…</translation>
    </message>
    <message>
        <source>%1 (%2) does not answer now. Is the server running? (%3)</source>
        <translation>%1（%2）が応答しません。サーバーは起動していますか?（%3）</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2): %n model(s): %3</source>
        <translation>
            <numerusform>%1(%2): %n 個のモデル: %3</numerusform>
        </translation>
    </message>
    <message>
        <source>The desktop keyring did not take its key (%1), so the key is kept for this session only.</source>
        <translation>デスクトップのキーリングにキーを保存できなかったため（%1）、キーはこのセッションの間だけ保持されます。</translation>
    </message>
    <message>
        <source>Its key is kept for this session only (there is no desktop keyring); it is not saved anywhere.</source>
        <translation>キーはこのセッションの間だけ保持されます（デスクトップのキーリングがありません）。どこにも書き込まれません。</translation>
    </message>
    <message>
        <source>Its key is stored in %1, which only you can read.</source>
        <translation>キーはあなただけが読める %1 に保存しました。</translation>
    </message>
    <message>
        <source>Its key could not be stored in %1 (%2), so it is kept for this session only.</source>
        <translation>キーを %1 に保存できなかったため（%2）、このセッションの間だけ保持されます。</translation>
    </message>
    <message>
        <source>Store the key in a file only you can read</source>
        <translation>あなただけが読めるファイルにキーを保存する</translation>
    </message>
    <message>
        <source>There is no desktop keyring: without this, the key is kept only until Hako closes. The file (%1) is readable by your user account only.</source>
        <translation>デスクトップのキーリングがありません。これを選ばない場合、キーは Hako を閉じるまでしか保持されません。ファイル（%1）はあなたのユーザーアカウントだけが読めます。</translation>
    </message>
</context>
<context>
    <name>hako::ThemeManager</name>
    <message>
        <source>&amp;Light</source>
        <translation>ライト(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>ダーク(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>システム(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>テーマ(&amp;T)</translation>
    </message>
</context>
<context>
    <name>hako::ThreadView</name>
    <message>
        <source>Open thread…</source>
        <translation>スレッドを開く…</translation>
    </message>
    <message>
        <source>Open a reply-tree file (JSON) to see a context's boundary.</source>
        <translation>返信ツリーのファイル (JSON) を開くと、コンテキストの範囲が表示されます。</translation>
    </message>
    <message>
        <source>Thread messages</source>
        <translation>スレッドのメッセージ</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>投稿者</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>Open thread</source>
        <translation>スレッドを開く</translation>
    </message>
    <message>
        <source>Threads (*.json);;All files (*)</source>
        <translation>スレッド (*.json);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>%1 messages. Select one to see the context a reply to it gets.</source>
        <translation>メッセージ %1 件。選択すると、それへの返信が受け取るコンテキストが表示されます。</translation>
    </message>
    <message>
        <source>Context of %1: %2 of %3 messages (%4); the rest, sibling branches included, stays out of the prompt.</source>
        <translation>%1 のコンテキスト: %3 件中 %2 件のメッセージ (%4)。残り（兄弟の枝を含む）はプロンプトに含まれません。</translation>
    </message>
</context>
<context>
    <name>hako::TimeChart</name>
    <message>
        <source>No calls in this time range</source>
        <translation>この期間の呼び出しはありません</translation>
    </message>
    <message>
        <source>Highest %1 (%2); %3 of %4 periods have calls</source>
        <translation>最大 %1 (%2)。%4 期間中 %3 期間に呼び出しがあります</translation>
    </message>
    <message>
        <source>up to %1</source>
        <translation>最大 %1</translation>
    </message>
</context>
<context>
    <name>hako::TimelineCanvas</name>
    <message>
        <source>This trace has no timing (pdl__timing).</source>
        <translation>このトレースには時間情報 (pdl__timing) がありません。</translation>
    </message>
    <message>
        <source>No trace.</source>
        <translation>トレースがありません。</translation>
    </message>
    <message>
        <source>%1, starts at +%2</source>
        <translation>%1、開始 +%2</translation>
    </message>
</context>
<context>
    <name>hako::TraceDiffView</name>
    <message>
        <source>Trace comparison</source>
        <translation>トレース比較</translation>
    </message>
    <message>
        <source>Comparison message</source>
        <translation>比較メッセージ</translation>
    </message>
    <message>
        <source>Choose two traces to compare</source>
        <translation>比較する 2 つのトレースを選んでください</translation>
    </message>
    <message>
        <source>Compare Traces…</source>
        <translation>トレースを比較…</translation>
    </message>
    <message>
        <source>Compare Traces</source>
        <translation>トレースを比較</translation>
    </message>
    <message>
        <source>Choose two trace files to compare</source>
        <translation>比較する 2 つのトレースファイルを選んでください</translation>
    </message>
    <message>
        <source>Comparison summary</source>
        <translation>比較の概要</translation>
    </message>
    <message>
        <source>Previous Difference</source>
        <translation>前の差分</translation>
    </message>
    <message>
        <source>Previous difference</source>
        <translation>前の差分</translation>
    </message>
    <message>
        <source>Next Difference</source>
        <translation>次の差分</translation>
    </message>
    <message>
        <source>Next difference</source>
        <translation>次の差分</translation>
    </message>
    <message>
        <source>Left trace</source>
        <translation>左のトレース</translation>
    </message>
    <message>
        <source>Right trace</source>
        <translation>右のトレース</translation>
    </message>
    <message>
        <source>Differences of the selected block</source>
        <translation>選択したブロックの差分</translation>
    </message>
    <message>
        <source>The runs are the same (timings aside).</source>
        <translation>実行内容は同じです（時間を除く）。</translation>
    </message>
    <message>
        <source>%1 changed, %2 inserted, %3 deleted, %4 same.</source>
        <translation>変更 %1、追加 %2、削除 %3、同じ %4。</translation>
    </message>
    <message>
        <source>Duration %1 → %2.</source>
        <translation>所要時間 %1 → %2。</translation>
    </message>
    <message>
        <source>Tokens %1 → %2.</source>
        <translation>トークン %1 → %2。</translation>
    </message>
    <message>
        <source>same (blocks below differ)</source>
        <translation>同じ（下位のブロックに差分あり）</translation>
    </message>
    <message>
        <source>same</source>
        <translation>同じ</translation>
    </message>
    <message>
        <source>changed: %1</source>
        <translation>変更: %1</translation>
    </message>
    <message>
        <source>only in the right trace</source>
        <translation>右のトレースのみ</translation>
    </message>
    <message>
        <source>only in the left trace</source>
        <translation>左のトレースのみ</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Prompt, message by message</source>
        <translation>プロンプト（メッセージごと）</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>Evaluated fields that differ</source>
        <translation>評価結果が異なるフィールド</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>左</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>右</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>所要時間</translation>
    </message>
    <message>
        <source>Tokens (block)</source>
        <translation>トークン（ブロック）</translation>
    </message>
    <message>
        <source>Tokens (with blocks below)</source>
        <translation>トークン（下位のブロックを含む）</translation>
    </message>
    <message>
        <source>Cost (with blocks below)</source>
        <translation>コスト（下位のブロックを含む）</translation>
    </message>
    <message>
        <source>Measures</source>
        <translation>計測値</translation>
    </message>
</context>
<context>
    <name>hako::TraceDocks</name>
    <message>
        <source>Trace</source>
        <translation>トレース</translation>
    </message>
    <message>
        <source>Trace Tree</source>
        <translation>トレースツリー</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>タイムライン</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>詳細</translation>
    </message>
    <message>
        <source>Variables</source>
        <translation>変数</translation>
    </message>
    <message>
        <source>Opened trace %1</source>
        <translation>トレース %1 を開きました</translation>
    </message>
    <message>
        <source>Trace — %1</source>
        <translation>トレース — %1</translation>
    </message>
    <message>
        <source>Trace — run of %1</source>
        <translation>トレース — %1 の実行</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>実行一覧</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n run(s); pick one to show it</source>
        <translation>
            <numerusform>%1: 実行 %n 件。表示する実行を選んでください</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read that run of %1</source>
        <translation>%1 のその実行を読めません</translation>
    </message>
</context>
<context>
    <name>hako::TraceLoadBar</name>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>%1 を読み込み中…</translation>
    </message>
    <message>
        <source>Loading %1 was cancelled.</source>
        <translation>%1 の読み込みをキャンセルしました。</translation>
    </message>
    <message>
        <source>Stop loading; what the panes show stays</source>
        <translation>読み込みを止めます。表示中の内容はそのまま残ります</translation>
    </message>
    <message numerus="yes">
        <source>Showing the first %n block(s) of %1; reading the rest…</source>
        <translation>
            <numerusform>%1 の最初の %n 個のブロックを表示中。残りを読み込んでいます…</numerusform></translation>
    </message>
    <message>
        <source>Loading %1 was cancelled: only its start is shown.</source>
        <translation>%1 の読み込みを取り消しました。ファイルの最初の部分だけを表示しています。</translation>
    </message>
</context>
<context>
    <name>hako::TraceTimelineView</name>
    <message>
        <source>Rows: tree order</source>
        <translation>行: ツリー順</translation>
    </message>
    <message>
        <source>Rows: depth</source>
        <translation>行: 深さ</translation>
    </message>
    <message>
        <source>One block per row in tree order, or one row per nesting level</source>
        <translation>ツリー順に 1 行 1 ブロック、またはネストの深さごとに 1 行</translation>
    </message>
    <message>
        <source>Timeline rows</source>
        <translation>タイムラインの行</translation>
    </message>
    <message>
        <source>Timeline of blocks</source>
        <translation>ブロックのタイムライン</translation>
    </message>
    <message>
        <source>Zoom out (−, Ctrl+wheel)</source>
        <translation>縮小 (−、Ctrl+ホイール)</translation>
    </message>
    <message>
        <source>Zoom in (+, Ctrl+wheel)</source>
        <translation>拡大 (+、Ctrl+ホイール)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>全体を表示</translation>
    </message>
    <message>
        <source>Show the whole run (0)</source>
        <translation>実行全体を表示 (0)</translation>
    </message>
    <message numerus="yes">
        <source>%n block(s), %1</source>
        <translation>
            <numerusform>%n ブロック、%1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::TraceTreeView</name>
    <message>
        <source>Search blocks (text, kind:model, def:name, failed)</source>
        <translation>ブロックを検索（テキスト、kind:model、def:名前、failed）</translation>
    </message>
    <message>
        <source>Search blocks</source>
        <translation>ブロックを検索</translation>
    </message>
    <message>
        <source>Block kind filter</source>
        <translation>ブロックの種類で絞り込み</translation>
    </message>
    <message>
        <source>Trace tree</source>
        <translation>トレースツリー</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>すべての種類</translation>
    </message>
    <message>
        <source>Show only blocks of this kind (and the blocks that contain them)</source>
        <translation>この種類のブロック（とそれを含むブロック）だけを表示します</translation>
    </message>
    <message numerus="yes">
        <source>No block matches (%n blocks).</source>
        <translation>
            <numerusform>一致するブロックはありません(全 %n ブロック)。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n blocks match (shown with the blocks around them). Clear the search to see every block.</source>
        <translation>
            <numerusform>%n ブロック中 %1 ブロックが一致します(周りのブロックと一緒に表示)。すべて表示するには検索を消してください。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::TrustDialog</name>
    <message>
        <source>Run Code?</source>
        <translation>コードを実行しますか？</translation>
    </message>
    <message>
        <source>This program</source>
        <translation>このプログラム</translation>
    </message>
    <message>
        <source>%1 comes from a folder you have not trusted and would run:</source>
        <translation>%1 は信頼していないフォルダーにあり、次のものを実行します:</translation>
    </message>
    <message>
        <source>&lt;ul&gt;%1&lt;/ul&gt;&lt;p&gt;Run it only if you trust where it comes from. Trusting the folder %2 lets every program in it run without asking.&lt;/p&gt;</source>
        <translation>&lt;ul&gt;%1&lt;/ul&gt;&lt;p&gt;入手元を信頼できる場合にだけ実行してください。フォルダー %2 を信頼すると、その中のすべてのプログラムが確認なしで実行されます。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Run Once</source>
        <translation>今回だけ実行</translation>
    </message>
    <message>
        <source>Trust Folder and Run</source>
        <translation>フォルダーを信頼して実行</translation>
    </message>
</context>
<context>
    <name>hako::VariablesView</name>
    <message>
        <source>Filter variables</source>
        <translation>変数を絞り込み</translation>
    </message>
    <message>
        <source>Variables in scope</source>
        <translation>スコープ内の変数</translation>
    </message>
    <message>
        <source>&lt;i&gt;Select a block to see the variables in scope there.&lt;/i&gt;</source>
        <translation>&lt;i&gt;ブロックを選択すると、その位置のスコープ内の変数が表示されます。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;i&gt;No trace.&lt;/i&gt;</source>
        <translation>&lt;i&gt;トレースがありません。&lt;/i&gt;</translation>
    </message>
    <message>
        <source>still running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>rebuilt from the trace: earlier definitions and loop variables</source>
        <translation>トレースから再構成: それまでの定義とループ変数</translation>
    </message>
    <message>
        <source>as captured by the run</source>
        <translation>実行時に記録されたもの</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n variable(s)&lt;/b&gt; at %1&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</source>
        <translation>
            <numerusform>&lt;b&gt;変数 %n 個&lt;/b&gt;（%1）&lt;br&gt;&lt;small&gt;%2&lt;/small&gt;</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::VariantEditor</name>
    <message>
        <source>Temperature</source>
        <translation>温度 (temperature)</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>最大トークン数</translation>
    </message>
    <message>
        <source>Top p</source>
        <translation>Top p</translation>
    </message>
    <message>
        <source>comma separated, \n for a new line</source>
        <translation>カンマ区切り。改行は \n</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止シーケンス</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>JSON object</source>
        <translation>JSON オブジェクト</translation>
    </message>
    <message>
        <source>Response format</source>
        <translation>応答の形式</translation>
    </message>
    <message>
        <source>Add message</source>
        <translation>メッセージを追加</translation>
    </message>
    <message>
        <source>Save to Program</source>
        <translation>プログラムに保存</translation>
    </message>
    <message>
        <source>Write this variant's model, parameters and messages back into the model block it came from</source>
        <translation>このバリエーションのモデル、パラメーター、メッセージを、元の model ブロックに書き戻します</translation>
    </message>
    <message>
        <source>Copy as PDL</source>
        <translation>PDL としてコピー</translation>
    </message>
    <message>
        <source>Copy this variant as a PDL model block</source>
        <translation>このバリエーションを PDL の model ブロックとしてコピーします</translation>
    </message>
    <message>
        <source>Variant %1</source>
        <translation>バリエーション %1</translation>
    </message>
    <message>
        <source>%1 model</source>
        <translation>%1 のモデル</translation>
    </message>
    <message>
        <source>%1 temperature</source>
        <translation>%1 の温度</translation>
    </message>
    <message>
        <source>%1 max tokens</source>
        <translation>%1 の最大トークン数</translation>
    </message>
    <message>
        <source>%1 top p</source>
        <translation>%1 の top p</translation>
    </message>
    <message>
        <source>%1 stop sequences</source>
        <translation>%1 の停止シーケンス</translation>
    </message>
    <message>
        <source>%1 seed</source>
        <translation>%1 のシード</translation>
    </message>
    <message>
        <source>%1 response format</source>
        <translation>%1 の応答の形式</translation>
    </message>
    <message>
        <source>%1 add message</source>
        <translation>%1 にメッセージを追加</translation>
    </message>
    <message>
        <source>Remove variant %1</source>
        <translation>バリエーション %1 を削除</translation>
    </message>
    <message>
        <source>%1 save to program</source>
        <translation>%1 をプログラムに保存</translation>
    </message>
    <message>
        <source>%1 copy as PDL</source>
        <translation>%1 を PDL としてコピー</translation>
    </message>
    <message>
        <source>%1 message %2</source>
        <translation>%1 のメッセージ %2</translation>
    </message>
    <message>
        <source>%1 role</source>
        <translation>%1 のロール</translation>
    </message>
    <message>
        <source>%1 text</source>
        <translation>%1 のテキスト</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>%1 を削除</translation>
    </message>
    <message>
        <source>Remove this message</source>
        <translation>このメッセージを削除</translation>
    </message>
    <message>
        <source>As given (%1)</source>
        <translation>元のまま (%1)</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>カスタム</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Remove this variant</source>
        <translation>このバリエーションを削除</translation>
    </message>
    <message>
        <source>Response formats</source>
        <translation>応答の形式の一覧</translation>
    </message>
    <message>
        <source>Roles</source>
        <translation>ロール</translation>
    </message>
    <message>
        <source>%1 images</source>
        <translation>%1 の画像</translation>
    </message>
</context>
<context>
    <name>hako::WatchView</name>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Watch</source>
        <translation>ウォッチ</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>Watch expressions</source>
        <translation>ウォッチ式</translation>
    </message>
    <message>
        <source>Expressions evaluated in the selected frame each time the run pauses; double-click one to edit it</source>
        <translation>実行が一時停止するたびに、選択したフレームで評価される式です。ダブルクリックで編集できます</translation>
    </message>
    <message>
        <source>Add a watch expression, e.g. i * 2 …</source>
        <translation>ウォッチ式を追加（例: i * 2）…</translation>
    </message>
    <message>
        <source>New watch expression</source>
        <translation>新しいウォッチ式</translation>
    </message>
    <message>
        <source>A PDL expression (i * 2, answer.score, or ${ … }); Enter adds it</source>
        <translation>PDL の式です（i * 2、answer.score、または ${ … }）。Enter で追加します</translation>
    </message>
    <message>
        <source>Remove watch expression</source>
        <translation>ウォッチ式を削除</translation>
    </message>
    <message>
        <source>Remove the selected watch expression (Delete)</source>
        <translation>選択したウォッチ式を削除します（Delete）</translation>
    </message>
    <message>
        <source>cannot be evaluated: %1</source>
        <translation>評価できません: %1</translation>
    </message>
</context>
<context>
    <name>hako::docs::TranscriptModel</name>
    <message>
        <source>Command</source>
        <translation>コマンド</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合計</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
</context>
<context>
    <name>hako::eval::DatasetTableModel</name>
    <message>
        <source>reference</source>
        <translation>期待出力</translation>
    </message>
</context>
<context>
    <name>hako::eval::ExperimentResultsModel</name>
    <message>
        <source>Inputs</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>期待出力</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>トークン数</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>レイテンシ</translation>
    </message>
    <message>
        <source>Check: %1</source>
        <translation>チェック: %1</translation>
    </message>
    <message>
        <source>Same as the reference</source>
        <translation>参照と同じ</translation>
    </message>
    <message>
        <source>Contains the reference</source>
        <translation>参照を含む</translation>
    </message>
    <message>
        <source>Is valid JSON</source>
        <translation>正しい JSON</translation>
    </message>
    <message>
        <source>Close to the reference</source>
        <translation>参照に近い</translation>
    </message>
    <message>
        <source>Length in characters</source>
        <translation>文字数</translation>
    </message>
    <message>
        <source>Judge model</source>
        <translation>判定モデル</translation>
    </message>
</context>
<context>
    <name>hako::library::LibrarySync</name>
    <message>
        <source>give the address of the team's shared library</source>
        <translation>チームの共有ライブラリのアドレスを入力してください</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 に書き込めません: %2</translation>
    </message>
    <message>
        <source>unexpected clash on %1</source>
        <translation>%1 で予期しない衝突が起きました</translation>
    </message>
    <message>
        <source>no team library is set: give its address first</source>
        <translation>チームのライブラリが設定されていません。先にアドレスを入力してください</translation>
    </message>
    <message>
        <source>the library is not on a branch</source>
        <translation>ライブラリがブランチ上にありません</translation>
    </message>
    <message>
        <source>save your changes as versions first: %1</source>
        <translation>先に変更を版として保存してください: %1</translation>
    </message>
    <message>
        <source>the team library did not take this library's versions (someone may have just sent theirs: sync again): %1</source>
        <translation>チームのライブラリがこちらの版を受け取りませんでした(ほかの人がちょうど送ったのかもしれません。もう一度同期してください): %1</translation>
    </message>
    <message>
        <source>cannot reach the team library: %1</source>
        <translation>チームのライブラリに接続できません: %1</translation>
    </message>
</context>
<context>
    <name>hako::memory::CandidateModel</name>
    <message>
        <source>added</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>moved %1 → %2</source>
        <translation>移動 %1 → %2</translation>
    </message>
    <message>
        <source>recency %1 (raw %2, %3 h since access)
importance %4 (raw %5)
relevance %6 (cosine %7)</source>
        <translation>新しさ %1（生の値 %2、アクセスから %3 時間）
重要度 %4（生の値 %5）
関連度 %6（コサイン %7）</translation>
    </message>
    <message>
        <source>(memory %1)</source>
        <translation>（メモリ %1）</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>順位</translation>
    </message>
    <message>
        <source>Relevance rank</source>
        <translation>関連度の順位</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>スコア</translation>
    </message>
    <message>
        <source>Recency | Importance | Relevance</source>
        <translation>新しさ | 重要度 | 関連度</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>変更</translation>
    </message>
    <message>
        <source>Cut</source>
        <translation>除外理由</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
</context>
<context>
    <name>hako::memory::MemoryTableModel</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要度</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <source>Accessed</source>
        <translation>アクセス日時</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>回数</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>エージェント</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
</context>
<context>
    <name>hako::models</name>
    <message>
        <source>The default model, %1, on the server %2</source>
        <translation>既定のモデル %1（サーバー %2）</translation>
    </message>
    <message>
        <source>The default model, on the server %1</source>
        <translation>既定のモデル（サーバー %1）</translation>
    </message>
    <message>
        <source>A model of the server %1</source>
        <translation>サーバー %1 のモデル</translation>
    </message>
</context>
<context>
    <name>hako::models::ModelConfig</name>
    <message>
        <source>or map the model in %1</source>
        <translation>か、%1 でモデルを対応付けてください</translation>
    </message>
    <message>
        <source>or map the model in Settings › Model Endpoints (%1)</source>
        <translation>か、［設定］›［モデルの接続先］(%1) でモデルを対応付けてください</translation>
    </message>
    <message>
        <source>Is Ollama running (`ollama serve`)? Set OLLAMA_API_BASE to its address (now %1) %2.</source>
        <translation>Ollama は起動していますか（`ollama serve`）？ OLLAMA_API_BASE に Ollama のアドレスを設定する（現在は %1）%2。</translation>
    </message>
    <message>
        <source>Set OPENAI_API_KEY, and OPENAI_BASE_URL for a server other than OpenAI's, %1.</source>
        <translation>OPENAI_API_KEY（OpenAI 以外のサーバーでは OPENAI_BASE_URL も）を設定する%1。</translation>
    </message>
    <message>
        <source>Set AZURE_API_BASE, AZURE_API_KEY and AZURE_API_VERSION %1.</source>
        <translation>AZURE_API_BASE、AZURE_API_KEY、AZURE_API_VERSION を設定する%1。</translation>
    </message>
</context>
<context>
    <name>hako::models::OpenAiProvider</name>
    <message>
        <source>could not connect within %1 s (connect timeout). %2</source>
        <translation>%1 秒以内に接続できませんでした（接続タイムアウト）。%2</translation>
    </message>
    <message>
        <source>cannot connect: %1. %2</source>
        <translation>接続できません: %1。%2</translation>
    </message>
</context>
<context>
    <name>hako::otel::OtelLiveFeed</name>
    <message>
        <source>the live view keeps the newest %1 spans: %2 span(s) received are not shown</source>
        <translation>ライブ表示は最新の %1 スパンだけを保持します。受信した %2 スパンは表示していません</translation>
    </message>
</context>
<context>
    <name>hako::pdl</name>
    <message>
        <source>Cannot read the annotations %1: %2</source>
        <translation>注釈 %1 を読み込めません: %2</translation>
    </message>
    <message>
        <source>%1 is not a file of Hako annotations; it was left as it is.</source>
        <translation>%1 は Hako の注釈ファイルではありません。そのままにしてあります。</translation>
    </message>
    <message>
        <source>Cannot remove the annotations %1</source>
        <translation>注釈 %1 を削除できません</translation>
    </message>
    <message>
        <source>Cannot write the annotations %1: %2</source>
        <translation>注釈 %1 を書き込めません: %2</translation>
    </message>
</context>
<context>
    <name>hako::pdl::Annotation</name>
    <message>
        <source>An annotation names no block ("node").</source>
        <translation>ブロック（"node"）を指定していない注釈があります。</translation>
    </message>
    <message>
        <source>The annotation of %1 has no valid score.</source>
        <translation>%1 の注釈に有効なスコアがありません。</translation>
    </message>
</context>
<context>
    <name>hako::pdl::BoxLayout</name>
    <message>
        <source>replayed</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>answered by hand</source>
        <translation>手入力で回答</translation>
    </message>
</context>
<context>
    <name>hako::pdl::Debugger</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>, breakpoint %1</source>
        <translation>、ブレークポイント %1</translation>
    </message>
    <message>
        <source>, before the model call</source>
        <translation>、モデル呼び出しの前</translation>
    </message>
    <message>
        <source>, error: %1</source>
        <translation>、エラー: %1</translation>
    </message>
    <message>
        <source>the run is not paused</source>
        <translation>実行は一時停止していません</translation>
    </message>
    <message>
        <source>no variable name</source>
        <translation>変数名がありません</translation>
    </message>
    <message>
        <source>the context must be a list of messages</source>
        <translation>コンテキストはメッセージのリストでなければなりません</translation>
    </message>
    <message>
        <source>the run is not paused at a model block</source>
        <translation>model ブロックで一時停止していません</translation>
    </message>
    <message>
        <source>the condition '%1' cannot be read: %2</source>
        <translation>条件「%1」を読み取れません: %2</translation>
    </message>
    <message>
        <source>line %1 does not exist (lines count from 1)</source>
        <translation>%1 行目はありません(行は 1 から数えます)</translation>
    </message>
    <message>
        <source>no program file '%1' in this run (it runs %2)</source>
        <translation>この実行にはプログラムファイル「%1」がありません(実行しているのは %2 です)</translation>
    </message>
    <message>
        <source>%1 has %2 lines: there is no line %3</source>
        <translation>%1 は %2 行です。%3 行目はありません</translation>
    </message>
    <message>
        <source>line %1 of %2 has no block, and no block follows it</source>
        <translation>%2 の %1 行目にはブロックがなく、その後にもブロックがありません</translation>
    </message>
    <message>
        <source>the call stack has no frame %1</source>
        <translation>コールスタックにフレーム %1 はありません</translation>
    </message>
    <message>
        <source>(logpoint %1: %2)</source>
        <translation>（ログポイント %1: %2）</translation>
    </message>
</context>
<context>
    <name>hako::pdl::OutlineModel</name>
    <message>
        <source>%1 (line %2)</source>
        <translation>%1（%2 行目）</translation>
    </message>
    <message>
        <source>%1, line %2</source>
        <translation>%1、%2 行目</translation>
    </message>
    <message>
        <source>%1, %2, line %3</source>
        <translation>%1、%2、%3 行目</translation>
    </message>
</context>
<context>
    <name>hako::pdl::PlainError</name>
    <message>
        <source>`%1` is not an input or a defined name</source>
        <translation>`%1` は入力でも、定義された名前でもありません</translation>
    </message>
    <message>
        <source> — did you mean `%1`?</source>
        <translation> — `%1` のことですか？</translation>
    </message>
    <message>
        <source>: define it with `def:` or `defs:`, or give it as an input</source>
        <translation>。`def:` か `defs:` で定義するか、入力として渡してください</translation>
    </message>
    <message>
        <source>The name in `${ }` has full-width spaces around or inside it: write it with ordinary spaces, as in `${ %1 }` (the quick fix replaces them)</source>
        <translation>`${ }` の中の名前の前後または途中に全角スペースがあります。`${ %1 }` のように半角スペースで書いてください(クイック修正で置き換えられます)</translation>
    </message>
    <message>
        <source>A `${` is not closed: end it with `}`, as in `${ name }`</source>
        <translation>`${` が閉じていません。`${ name }` のように `}` で閉じてください</translation>
    </message>
    <message>
        <source>A colon followed by a space inside a text makes YAML read a new field: put the whole text in double quotes, as in "お問い合わせ: 返品したい"</source>
        <translation>文章の中に「コロンと空白」があると、YAML はそこから新しい項目だと読みます。"お問い合わせ: 返品したい" のように、文章全体をダブルクォートで囲んでください</translation>
    </message>
    <message>
        <source> It is written `${%1}` (□ marks a full-width space).</source>
        <translation> 書かれている形は `${%1}` です（□ が全角スペース）。</translation>
    </message>
    <message>
        <source>A `${` is not closed before “%1”: end the expression with `}`, as in `${ name }`</source>
        <translation>`${` が「%1」の前で閉じていません。`${ name }` のように、式の終わりを `}` で閉じてください</translation>
    </message>
    <message>
        <source>A `#` after a space starts a comment in YAML, so “%1” is left out of the text: put the whole text in double quotes (the quick fix does)</source>
        <translation>YAML では空白のあとの `#` からがコメントになるため、「%1」が文章から抜け落ちます。文章全体をダブルクォートで囲んでください（クイック修正で囲めます）</translation>
    </message>
    <message>
        <source>There is one `}` too many after `%1`: it would be written out in the text. Remove it (the quick fix does)</source>
        <translation>`%1` のあとに `}` が 1 つ多くあり、そのまま文章に出力されます。削除してください（クイック修正で削除できます）</translation>
    </message>
    <message>
        <source>`%1` is not defined in the program, so it is an input: fill it in under Inputs before a run, or give it a value in `defs:` (a quick fix adds it)</source>
        <translation>`%1` はプログラムの中で定義されていないため、入力になります。実行の前に「入力」欄に値を入れるか、`defs:` で値を決めてください（クイック修正で追加できます）</translation>
    </message>
</context>
<context>
    <name>hako::pdl::QuickFix</name>
    <message>
        <source>Change to `%1`</source>
        <translation>`%1` に変更</translation>
    </message>
    <message>
        <source>Indent `%1:` under the %2 block above</source>
        <translation>`%1:` を上の %2 ブロックの中へインデント</translation>
    </message>
    <message>
        <source>Indent `%1:` under `%2:`</source>
        <translation>`%1:` を `%2:` の中へインデント</translation>
    </message>
    <message>
        <source>Indent `%1:` under the line above</source>
        <translation>`%1:` を上の行の中へインデント</translation>
    </message>
    <message>
        <source>Define `%1` as an input of the program</source>
        <translation>`%1` をプログラムの入力として定義</translation>
    </message>
    <message>
        <source>Replace the full-width spaces with ordinary spaces</source>
        <translation>全角スペースを半角スペースに置き換える</translation>
    </message>
    <message>
        <source>Close the `${` with `}`</source>
        <translation>`${` を `}` で閉じる</translation>
    </message>
    <message>
        <source>Put the text in double quotes</source>
        <translation>文章をダブルクォートで囲む</translation>
    </message>
    <message>
        <source>Remove the extra `}`</source>
        <translation>余分な `}` を削除</translation>
    </message>
</context>
<context>
    <name>hako::pdl::Rename</name>
    <message>
        <source>The new name is empty.</source>
        <translation>新しい名前が空です。</translation>
    </message>
    <message>
        <source>'%1' is not a valid variable name: use letters, digits and underscores, not starting with a digit.</source>
        <translation>「%1」は変数名として使えません。英字・数字・アンダースコアを使い、数字で始めないでください。</translation>
    </message>
    <message>
        <source>'%1' is a Python or Jinja keyword and cannot name a variable.</source>
        <translation>「%1」は Python または Jinja のキーワードなので、変数名にできません。</translation>
    </message>
    <message>
        <source>Names starting with 'pdl_' are reserved for PDL's built-in variables.</source>
        <translation>「pdl_」で始まる名前は PDL の組み込み変数用に予約されています。</translation>
    </message>
    <message>
        <source>'%1' is a built-in function of expressions; a variable of that name would hide it.</source>
        <translation>「%1」は式の組み込み関数です。同じ名前の変数はそれを隠してしまいます。</translation>
    </message>
    <message>
        <source>'%1' is not defined where it is used here, so there is no definition to rename.</source>
        <translation>「%1」はここで使われている位置で定義されていないため、変更する定義がありません。</translation>
    </message>
    <message>
        <source>Put the cursor on a variable (where it is defined or used) to rename it.</source>
        <translation>名前を変更するには、変数（定義または使用箇所）にカーソルを置いてください。</translation>
    </message>
    <message>
        <source>'%1' is built into PDL and cannot be renamed.</source>
        <translation>「%1」は PDL の組み込みなので、名前を変更できません。</translation>
    </message>
    <message>
        <source>'%1' is provided from outside the program (data given to the run), so it cannot be renamed here.</source>
        <translation>「%1」はプログラムの外から（実行に渡すデータとして）与えられるため、ここでは名前を変更できません。</translation>
    </message>
    <message>
        <source>'%1' is defined in another file (an included program); rename it there.</source>
        <translation>「%1」は別のファイル（取り込んだプログラム）で定義されています。そちらで変更してください。</translation>
    </message>
    <message>
        <source>'%1' is also defined in an included program; renaming it only here would split it in two.</source>
        <translation>「%1」は取り込んだプログラムでも定義されています。ここだけ変更すると二つに分かれてしまいます。</translation>
    </message>
    <message>
        <source>The new name is the same as the old one.</source>
        <translation>新しい名前が元の名前と同じです。</translation>
    </message>
    <message>
        <source>'%1' may be read by the %2 code at line %3, which renaming cannot follow.</source>
        <translation>「%1」は %3 行目の %2 コードから読まれる可能性があり、名前の変更ではそこまで追えません。</translation>
    </message>
    <message>
        <source>The program reads pdl_scope (line %1), which may name '%2' in ways renaming cannot follow.</source>
        <translation>プログラムは pdl_scope を読んでいます（%1 行目）。そこで「%2」が名前の変更では追えない形で参照される可能性があります。</translation>
    </message>
    <message>
        <source>Cannot find '%1' exactly at line %2, column %3; nothing was renamed.</source>
        <translation>%2 行目 %3 列目に「%1」がちょうど見つかりません。何も変更していません。</translation>
    </message>
    <message>
        <source>'%1' is already a name given to the program from outside; choose another name.</source>
        <translation>「%1」はすでにプログラムの外から与えられる名前です。別の名前を選んでください。</translation>
    </message>
    <message>
        <source>'%1' is already defined (line %2) and in reach at line %3; one name would hide the other.</source>
        <translation>「%1」はすでに定義されていて（%2 行目）、%3 行目から参照できます。一方の名前がもう一方を隠してしまいます。</translation>
    </message>
    <message>
        <source>'%1' is already used at line %2, where '%3' is in reach; after renaming it would read the renamed variable.</source>
        <translation>「%1」はすでに %2 行目で使われていて、そこでは「%3」が参照できます。変更後は名前を変えた変数を読むことになります。</translation>
    </message>
</context>
<context>
    <name>hako::pdl::RunShape</name>
    <message>
        <source>call at line %1</source>
        <translation>%1 行目の呼び出し</translation>
    </message>
</context>
<context>
    <name>hako::pdl::Snippets</name>
    <message>
        <source>model call</source>
        <translation>model 呼び出し</translation>
    </message>
    <message>
        <source>Calls the default model with an input and parameters.</source>
        <translation>既定のモデルを入力とパラメーター付きで呼び出します。</translation>
    </message>
    <message>
        <source>text made of parts</source>
        <translation>text 部分をつなげた文章</translation>
    </message>
    <message>
        <source>Runs a list of blocks and joins their results into one text.</source>
        <translation>ブロックのリストを実行し、結果を一つの文章につなげます。</translation>
    </message>
    <message>
        <source>lastOf steps, keep the last result</source>
        <translation>lastOf 手順を実行し最後の結果を使う</translation>
    </message>
    <message>
        <source>Runs a list of blocks in order; the result is the last one's.</source>
        <translation>ブロックのリストを順に実行します。結果は最後のブロックの結果です。</translation>
    </message>
    <message>
        <source>array of results</source>
        <translation>array 結果のリスト</translation>
    </message>
    <message>
        <source>Runs a list of blocks and collects their results in a list.</source>
        <translation>ブロックのリストを実行し、結果をリストに集めます。</translation>
    </message>
    <message>
        <source>object with named results</source>
        <translation>object 名前付きの結果</translation>
    </message>
    <message>
        <source>Builds an object whose fields are the results of blocks.</source>
        <translation>各フィールドがブロックの結果であるオブジェクトを作ります。</translation>
    </message>
    <message>
        <source>data value</source>
        <translation>data 値</translation>
    </message>
    <message>
        <source>A literal value (text, number, list or object) written in YAML.</source>
        <translation>YAML で書いた値（文字列・数値・リスト・オブジェクト）です。</translation>
    </message>
    <message>
        <source>code in Python</source>
        <translation>code Python のコード</translation>
    </message>
    <message>
        <source>Runs Python code; the value of its `result` variable is the result.</source>
        <translation>Python のコードを実行します。変数 `result` の値が結果になります。</translation>
    </message>
    <message>
        <source>read input from the user</source>
        <translation>read ユーザーの入力を読む</translation>
    </message>
    <message>
        <source>Shows a message and reads a line typed by the user.</source>
        <translation>メッセージを表示し、ユーザーが入力した 1 行を読みます。</translation>
    </message>
    <message>
        <source>include another program</source>
        <translation>include 別のプログラムを取り込む</translation>
    </message>
    <message>
        <source>Runs another PDL file here, as if written in place.</source>
        <translation>別の PDL ファイルを、ここに書いたかのように実行します。</translation>
    </message>
    <message>
        <source>import definitions from a file</source>
        <translation>import ファイルの定義を読み込む</translation>
    </message>
    <message>
        <source>Makes the definitions of another PDL file available, without running it.</source>
        <translation>別の PDL ファイルの定義を、実行せずに使えるようにします。</translation>
    </message>
    <message>
        <source>if a condition holds, then… else…</source>
        <translation>if 条件が成り立てば then… そうでなければ else…</translation>
    </message>
    <message>
        <source>Runs the `then` block when the condition is true, else the `else` block.</source>
        <translation>条件が真なら `then` のブロックを、そうでなければ `else` のブロックを実行します。</translation>
    </message>
    <message>
        <source>for each item, loop over a list</source>
        <translation>for 各項目でリストを繰り返す</translation>
    </message>
    <message>
        <source>Runs the body once for each item of a list.</source>
        <translation>リストの各項目について本体を 1 回ずつ実行します。</translation>
    </message>
    <message>
        <source>repeat until a condition holds</source>
        <translation>repeat 条件が成り立つまで繰り返す</translation>
    </message>
    <message>
        <source>Runs the body again and again until the condition becomes true.</source>
        <translation>条件が真になるまで本体を繰り返し実行します。</translation>
    </message>
    <message>
        <source>repeat a number of times</source>
        <translation>repeat 決まった回数繰り返す</translation>
    </message>
    <message>
        <source>Runs the body a fixed number of times.</source>
        <translation>本体を決まった回数だけ実行します。</translation>
    </message>
    <message>
        <source>function definition</source>
        <translation>function 関数の定義</translation>
    </message>
    <message>
        <source>Defines a function with parameters that others can call.</source>
        <translation>ほかから呼び出せる、パラメーター付きの関数を定義します。</translation>
    </message>
    <message>
        <source>call a function with arguments</source>
        <translation>call 引数を渡して関数を呼ぶ</translation>
    </message>
    <message>
        <source>Calls a function defined elsewhere, passing it arguments.</source>
        <translation>別の場所で定義した関数を、引数を渡して呼び出します。</translation>
    </message>
    <message>
        <source>def: keep a result in a variable</source>
        <translation>def: 結果を変数に入れる</translation>
    </message>
    <message>
        <source>Stores a block's result in a variable that later blocks can use.</source>
        <translation>ブロックの結果を、後のブロックで使える変数に入れます。</translation>
    </message>
    <message>
        <source>match a value against cases</source>
        <translation>match 値をケースと照合する</translation>
    </message>
    <message>
        <source>Runs the first case whose pattern matches the value.</source>
        <translation>パターンが値に一致する最初のケースを実行します。</translation>
    </message>
    <message>
        <source>message with a role</source>
        <translation>message 役割付きのメッセージ</translation>
    </message>
    <message>
        <source>Adds a chat message with a role (user, assistant, system) to the context.</source>
        <translation>役割（user・assistant・system）付きのチャットメッセージをコンテキストに加えます。</translation>
    </message>
    <message>
        <source>get a variable's value</source>
        <translation>get 変数の値</translation>
    </message>
    <message>
        <source>The value of a variable defined earlier.</source>
        <translation>前に定義した変数の値です。</translation>
    </message>
</context>
<context>
    <name>hako::pdl::TraceDiffModel</name>
    <message>
        <source>same (differs below)</source>
        <translation>同じ（下位に差分あり）</translation>
    </message>
    <message>
        <source>same</source>
        <translation>同じ</translation>
    </message>
    <message>
        <source>changed: %1</source>
        <translation>変更: %1</translation>
    </message>
    <message>
        <source>inserted</source>
        <translation>追加</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>左</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>右</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>所要時間</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Δ Tokens</source>
        <translation>Δ トークン</translation>
    </message>
    <message>
        <source>Δ Duration</source>
        <translation>Δ 所要時間</translation>
    </message>
</context>
<context>
    <name>hako::pdl::TraceModel</name>
    <message>
        <source>running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>ブロック</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>所要時間</translation>
    </message>
    <message>
        <source>replayed</source>
        <translation>再生</translation>
    </message>
    <message>
        <source>answered by hand</source>
        <translation>手入力で回答</translation>
    </message>
</context>
<context>
    <name>hako::pdl::ValueTreeModel</name>
    <message>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>型</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
</context>
<context>
    <name>hako::playground</name>
    <message>
        <source>a prompt's name cannot be empty</source>
        <translation>プロンプト名は空にできません</translation>
    </message>
    <message>
        <source>only a program that is a mapping of fields can be named here; add a description: line in the YAML</source>
        <translation>ここで名前を付けられるのは項目の対応表(マッピング)のプログラムだけです。YAML に description: の行を追加してください</translation>
    </message>
    <message>
        <source>the name could not be written</source>
        <translation>名前を書き込めませんでした</translation>
    </message>
    <message>
        <source>this list cannot be emptied here — use the YAML view</source>
        <translation>このリストはここでは空にできません。YAML 表示を使ってください</translation>
    </message>
    <message>
        <source>no list starts at line %1, column %2</source>
        <translation>%1 行目 %2 列目から始まるリストがありません</translation>
    </message>
    <message>
        <source>an item of a list cannot hold a line break</source>
        <translation>リストの項目には改行を入れられません</translation>
    </message>
    <message>
        <source>the list at line %1 cannot be written here</source>
        <translation>%1 行目のリストはここでは書き換えられません</translation>
    </message>
    <message>
        <source>the list at line %1 is written in a way the Prompt view cannot change — use the YAML view</source>
        <translation>%1 行目のリストはプロンプト表示では変更できない書き方です。YAML 表示を使ってください</translation>
    </message>
    <message>
        <source>the list at line %1 could not be written</source>
        <translation>%1 行目のリストを書き込めませんでした</translation>
    </message>
    <message>
        <source>only a number or yes/no can be written here</source>
        <translation>ここには数値か、はい／いいえだけを書き込めます</translation>
    </message>
    <message>
        <source>no value starts at line %1, column %2</source>
        <translation>%1 行目 %2 列目から始まる値がありません</translation>
    </message>
    <message>
        <source>the value at line %1 could not be written</source>
        <translation>%1 行目の値を書き込めませんでした</translation>
    </message>
    <message>
        <source>write each field as “name: type” on its own line, each name once</source>
        <translation>項目は 1 行に 1 つ、「名前: 型」の形で書いてください（同じ名前は 1 回だけ）</translation>
    </message>
    <message>
        <source>the output format needs at least one field</source>
        <translation>出力の形式には項目が 1 つ以上必要です</translation>
    </message>
    <message>
        <source>no output format starts at line %1</source>
        <translation>%1 行目から始まる出力の形式がありません</translation>
    </message>
    <message>
        <source>the output format at line %1 cannot be written</source>
        <translation>%1 行目の出力の形式は書き換えられません</translation>
    </message>
    <message>
        <source>the output format at line %1 is written in a way the Prompt view cannot change — use the YAML view</source>
        <translation>%1 行目の出力の形式はプロンプト表示では変更できない書き方です。YAML 表示を使ってください</translation>
    </message>
    <message>
        <source>the output format at line %1 could not be written</source>
        <translation>%1 行目の出力の形式を書き込めませんでした</translation>
    </message>
    <message>
        <source>a prompt can only be added to a program whose steps are a list under “text:” — use the YAML view</source>
        <translation>プロンプトを追加できるのは、手順が「text:」の下のリストになっているプログラムだけです。YAML 表示を使ってください</translation>
    </message>
    <message>
        <source>the new prompt could not be written</source>
        <translation>新しいプロンプトを書き込めませんでした</translation>
    </message>
    <message>
        <source>this step is not in a list of steps</source>
        <translation>この手順は手順のリストの中にありません</translation>
    </message>
    <message>
        <source>it is already the first step here</source>
        <translation>すでにここで最初の手順です</translation>
    </message>
    <message>
        <source>it is already the last step here</source>
        <translation>すでにここで最後の手順です</translation>
    </message>
    <message>
        <source>the steps here are written in a way the Prompt view cannot reorder — use the YAML view</source>
        <translation>ここの手順はプロンプト表示では並べ替えられない書き方です。YAML 表示を使ってください</translation>
    </message>
    <message>
        <source>the step could not be moved</source>
        <translation>手順を移動できませんでした</translation>
    </message>
    <message>
        <source>moving it there would use %1 before the step that sets it</source>
        <translation>そこに移動すると、%1 を設定する手順より前に使うことになります</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>it is the only step here; a program needs at least one</source>
        <translation>ここにある唯一の手順です。プログラムには手順が 1 つ以上必要です</translation>
    </message>
    <message>
        <source>the steps here are written in a way the Prompt view cannot change — use the YAML view</source>
        <translation>ここの手順はプロンプト表示では変更できない書き方です。YAML 表示を使ってください</translation>
    </message>
    <message>
        <source>the step could not be removed</source>
        <translation>手順を削除できませんでした</translation>
    </message>
    <message>
        <source>no step starts at line %1</source>
        <translation>%1 行目から始まる手順がありません</translation>
    </message>
    <message>
        <source>the name %1 is already used in this program</source>
        <translation>名前 %1 はこのプログラムですでに使われています</translation>
    </message>
    <message>
        <source>the program cannot be read until its errors are fixed</source>
        <translation>エラーを直すまでプログラムを読み取れません</translation>
    </message>
</context>
<context>
    <name>hako::playground::InputTable</name>
    <message numerus="yes">
        <source>a list of %n item(s)</source>
        <translation>
            <numerusform>%n 個の項目のリスト</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>a record of %n field(s)</source>
        <translation>
            <numerusform>%n 個の項目を持つレコード</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>text (%n character(s)); write ["a", "b"] for a list</source>
        <translation>
            <numerusform>テキスト(%n 文字)。リストにするには ["a", "b"] と書きます</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>hako::playground::PlaygroundResultModel</name>
    <message>
        <source>Variant %1</source>
        <translation>バリエーション %1</translation>
    </message>
    <message>
        <source>Waiting…</source>
        <translation>待機中…</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>実行中…</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>エラー: %1</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>%1 of %2 done</source>
        <translation>%2 件中 %1 件完了</translation>
    </message>
    <message>
        <source>%1 distinct of %2</source>
        <translation>%2 件中 %1 種類</translation>
    </message>
    <message>
        <source> (%1 failed)</source>
        <translation>（%1 件失敗）</translation>
    </message>
    <message>
        <source>Tokens: %1 in, %2 out</source>
        <translation>トークン: 入力 %1、出力 %2</translation>
    </message>
    <message>
        <source>Latency: %1 ms</source>
        <translation>レイテンシ: %1 ms</translation>
    </message>
    <message>
        <source>Row %1</source>
        <translation>行 %1</translation>
    </message>
    <message>
        <source>
%1 calls: %2 tokens in, %3 out; mean latency %4 ms</source>
        <translation>
呼び出し %1 件: 入力 %2 トークン、出力 %3 トークン、平均レイテンシ %4 ms</translation>
    </message>
    <message>
        <source>
%1 failed</source>
        <translation>
%1 件失敗</translation>
    </message>
</context>
<context>
    <name>hako::playground::PlaygroundRun</name>
    <message>
        <source>Cancelled before it was sent</source>
        <translation>送信前にキャンセルしました</translation>
    </message>
</context>
<context>
    <name>hako::playground::PromptDoc</name>
    <message>
        <source>Text</source>
        <translation>テキスト</translation>
    </message>
    <message>
        <source>Builds the text saved as %1.</source>
        <translation>%1 として保存するテキストを組み立てます。</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <source>A %1 message built from the steps inside.</source>
        <translation>内部のステップから組み立てる %1 メッセージです。</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>データ</translation>
    </message>
    <message>
        <source>Holds a fixed value.</source>
        <translation>固定値を保持します。</translation>
    </message>
    <message>
        <source>Holds a fixed value named %1.</source>
        <translation>%1 という名前の固定値を保持します。</translation>
    </message>
    <message>
        <source>Condition</source>
        <translation>条件</translation>
    </message>
    <message>
        <source>Runs only when %1; otherwise %2.</source>
        <translation>%1 のときだけ実行します。そうでない場合は%2。</translation>
    </message>
    <message>
        <source>runs the part under “Otherwise”</source>
        <translation>「それ以外」の部分を実行します</translation>
    </message>
    <message>
        <source>does nothing</source>
        <translation>何もしません</translation>
    </message>
    <message>
        <source>Otherwise</source>
        <translation>それ以外</translation>
    </message>
    <message>
        <source>Runs when %1 is not true.</source>
        <translation>%1 が成り立たないときに実行します。</translation>
    </message>
    <message>
        <source>Choice</source>
        <translation>選択</translation>
    </message>
    <message>
        <source>Picks one of %1 cases depending on %2.</source>
        <translation>%2 に応じて %1 個のケースから 1 つを選びます。</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>ループ</translation>
    </message>
    <message>
        <source>Runs for each item of %1, all at once.</source>
        <translation>%1 の各項目に対して、すべて同時に実行します。</translation>
    </message>
    <message>
        <source>Repeats for each item of %1.</source>
        <translation>%1 の各項目について繰り返します。</translation>
    </message>
    <message>
        <source> and </source>
        <translation>と</translation>
    </message>
    <message>
        <source>Repeats while %1.</source>
        <translation>%1 の間、繰り返します。</translation>
    </message>
    <message>
        <source>Repeats until %1.</source>
        <translation>%1 になるまで繰り返します。</translation>
    </message>
    <message>
        <source>Repeats %1 times.</source>
        <translation>%1 回繰り返します。</translation>
    </message>
    <message>
        <source>Repeats the steps inside.</source>
        <translation>内部のステップを繰り返します。</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>再利用できるステップ</translation>
    </message>
    <message>
        <source>Defines the reusable step %1.</source>
        <translation>再利用できるステップ %1 を定義します。</translation>
    </message>
    <message>
        <source>Defines the reusable step %1, given %2.</source>
        <translation>%2 を受け取る再利用できるステップ %1 を定義します。</translation>
    </message>
    <message>
        <source>Call</source>
        <translation>呼び出し</translation>
    </message>
    <message>
        <source>Runs the reusable step %1.</source>
        <translation>再利用できるステップ %1 を実行します。</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <source>Runs Python code — ask an engineer to change it.</source>
        <translation>Python コードを実行します — 変更はエンジニアに依頼してください。</translation>
    </message>
    <message>
        <source>Fills in a Jinja template — ask an engineer to change it.</source>
        <translation>Jinja テンプレートに値を埋め込みます — 変更はエンジニアに依頼してください。</translation>
    </message>
    <message>
        <source>Runs generated PDL — ask an engineer to change it.</source>
        <translation>生成された PDL を実行します — 変更はエンジニアに依頼してください。</translation>
    </message>
    <message>
        <source>Runs a command on this computer — ask an engineer to change it.</source>
        <translation>このコンピューターでコマンドを実行します — 変更はエンジニアに依頼してください。</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>読み込み</translation>
    </message>
    <message>
        <source>Asks you: “%1”</source>
        <translation>入力を求めます:「%1」</translation>
    </message>
    <message>
        <source>Asks you to type a value when it runs.</source>
        <translation>実行時に値の入力を求めます。</translation>
    </message>
    <message>
        <source>Reads the file %1.</source>
        <translation>ファイル %1 を読み込みます。</translation>
    </message>
    <message>
        <source>Include</source>
        <translation>取り込み</translation>
    </message>
    <message>
        <source>Runs the program %1 here.</source>
        <translation>プログラム %1 をここで実行します。</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>インポート</translation>
    </message>
    <message>
        <source>Loads the reusable steps of another program.</source>
        <translation>別のプログラムの再利用できるステップを読み込みます。</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <source>Uses the value of %1.</source>
        <translation>%1 の値を使います。</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>出力</translation>
    </message>
    <message>
        <source>Collects results for a file or the console.</source>
        <translation>ファイルまたはコンソール向けに結果をまとめます。</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>A %1 step.</source>
        <translation>%1 ステップです。</translation>
    </message>
    <message>
        <source>Model call</source>
        <translation>モデル呼び出し</translation>
    </message>
    <message>
        <source>an input of the program (fill it in at the top)</source>
        <translation>プログラムの入力（上部で入力してください）</translation>
    </message>
    <message>
        <source>built in: %1</source>
        <translation>組み込み: %1</translation>
    </message>
    <message>
        <source>%1 on line %2</source>
        <translation>%2 行目の %1</translation>
    </message>
    <message>
        <source>the program cannot be read</source>
        <translation>プログラムを読み込めません</translation>
    </message>
    <message>
        <source>no text starts at line %1, column %2</source>
        <translation>%1 行 %2 列目から始まるテキストがありません</translation>
    </message>
    <message>
        <source>the new text could not be written at line %1</source>
        <translation>%1 行目に新しいテキストを書き込めませんでした</translation>
    </message>
    <message>
        <source>the settings of this model call are written in a way the Prompt view cannot change — use the YAML view</source>
        <translation>このモデル呼び出しの設定はプロンプト表示では変更できない形式で書かれています — YAML 表示を使ってください</translation>
    </message>
    <message>
        <source>the setting %1 could not be written</source>
        <translation>設定 %1 を書き込めませんでした</translation>
    </message>
    <message>
        <source>%1 — output format</source>
        <translation>%1 — 出力の形式</translation>
    </message>
    <message>
        <source>Output format</source>
        <translation>出力の形式</translation>
    </message>
</context>
<context>
    <name>hako::playground::PromptDocPlace</name>
    <message>
        <source>“%1”</source>
        <translation>「%1」</translation>
    </message>
    <message>
        <source>Value %1</source>
        <translation>値 %1</translation>
    </message>
    <message>
        <source>Text at line %1</source>
        <translation>%1 行目のテキスト</translation>
    </message>
    <message>
        <source>Text %1</source>
        <translation>テキスト%1</translation>
    </message>
    <message>
        <source>%1 at line %2</source>
        <translation>%2 行目の%1</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>Model call at line %1</source>
        <translation>%1 行目のモデル呼び出し</translation>
    </message>
    <message>
        <source>Model call %1</source>
        <translation>モデル呼び出し%1</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>パラメーター</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>入力</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>指示</translation>
    </message>
    <message>
        <source>%1 message</source>
        <translation>%1 メッセージ</translation>
    </message>
    <message>
        <source>%1 › %2</source>
        <translation>%1 › %2</translation>
    </message>
</context>
<context>
    <name>hako::promptlog</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>hako::promptlog::CallTableModel</name>
    <message>
        <source>Time</source>
        <translation>時刻</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>タグ</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Tokens In</source>
        <translation>入力トークン</translation>
    </message>
    <message>
        <source>Tokens Out</source>
        <translation>出力トークン</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>レイテンシ</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状態</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>スコア</translation>
    </message>
</context>
<context>
    <name>hako::promptlog::StatsTableModel</name>
    <message>
        <source>No calls in this time range</source>
        <translation>この期間の呼び出しはありません</translation>
    </message>
    <message>
        <source>Tokens per %1, oldest to newest; the highest: %2</source>
        <translation>%1あたりのトークン数（古い順）。最大: %2</translation>
    </message>
    <message>
        <source>(no tags)</source>
        <translation>（タグなし）</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>プロンプト</translation>
    </message>
    <message>
        <source>Tag</source>
        <translation>タグ</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Day (UTC)</source>
        <translation>日 (UTC)</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>呼び出し</translation>
    </message>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Tokens In</source>
        <translation>入力トークン</translation>
    </message>
    <message>
        <source>Tokens Out</source>
        <translation>出力トークン</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>コスト</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p95</source>
        <translation>p95</translation>
    </message>
    <message>
        <source>Tokens over time</source>
        <translation>トークン数の推移</translation>
    </message>
    <message>
        <source>Tokens per %1</source>
        <translation>%1あたりのトークン数</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>プログラム</translation>
    </message>
</context>
</TS>