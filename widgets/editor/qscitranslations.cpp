// QScintilla ships no Japanese translation: the texts of its editing context menu (context
// "QsciScintilla") are listed here so that lupdate puts them in Hako's .ts files, whose
// translator then serves them too.
#include <QtGlobal>

namespace {

[[maybe_unused]] const char* const kQsciScintillaTexts[] = {
    QT_TRANSLATE_NOOP("QsciScintilla", "&Undo"),      QT_TRANSLATE_NOOP("QsciScintilla", "&Redo"),
    QT_TRANSLATE_NOOP("QsciScintilla", "Cu&t"),       QT_TRANSLATE_NOOP("QsciScintilla", "&Copy"),
    QT_TRANSLATE_NOOP("QsciScintilla", "&Paste"),     QT_TRANSLATE_NOOP("QsciScintilla", "Delete"),
    QT_TRANSLATE_NOOP("QsciScintilla", "Select All"),
};

} // namespace
