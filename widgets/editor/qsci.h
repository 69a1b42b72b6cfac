#pragma once

// QScintilla's headers use the `signals`/`slots` keywords, which the project disables
// (QT_NO_KEYWORDS). Include QScintilla only through this header.
#if defined(QT_NO_KEYWORDS) && !defined(signals)
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define HAKO_QSCI_KEYWORDS_DEFINED
#endif

#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>
#include <Qsci/qscilexercustom.h>
#include <Qsci/qscilexeryaml.h>
#include <Qsci/qsciscintilla.h>

#ifdef HAKO_QSCI_KEYWORDS_DEFINED
#undef signals
#undef slots
#undef HAKO_QSCI_KEYWORDS_DEFINED
#endif
