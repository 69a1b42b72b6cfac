-- A prompt log of schema version 1 (before prompt identity and origins), with four calls.
CREATE TABLE calls(
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  run_id TEXT NOT NULL DEFAULT '',
  program_path TEXT NOT NULL DEFAULT '',
  program_hash TEXT NOT NULL DEFAULT '',
  prompt TEXT NOT NULL DEFAULT '',
  src_file TEXT NOT NULL DEFAULT '',
  src_line INTEGER NOT NULL DEFAULT 0,
  src_column INTEGER NOT NULL DEFAULT 0,
  src_end_line INTEGER NOT NULL DEFAULT 0,
  src_end_column INTEGER NOT NULL DEFAULT 0,
  trace_node TEXT NOT NULL DEFAULT '',
  tags TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  endpoint TEXT NOT NULL DEFAULT '',
  finish_reason TEXT NOT NULL DEFAULT '',
  tokens_prompt INTEGER,
  tokens_completion INTEGER,
  tokens_cached INTEGER,
  ttft_ms REAL,
  latency_ms REAL,
  cost REAL,
  status TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT '',
  retries INTEGER NOT NULL DEFAULT 0,
  started_at INTEGER NOT NULL,
  content_omitted INTEGER NOT NULL DEFAULT 0);
CREATE INDEX calls_run ON calls(run_id);
CREATE INDEX calls_prompt ON calls(prompt, started_at);
CREATE INDEX calls_model ON calls(model, started_at);
-- Covers the monitor's scans (time range, every group key, every summed column).
CREATE INDEX calls_stats ON calls(started_at, prompt, model, status, tokens_prompt,
  tokens_completion, cost, latency_ms, tags);
CREATE TABLE call_tags(tag TEXT NOT NULL, call_id INTEGER NOT NULL,
  PRIMARY KEY(tag, call_id)) WITHOUT ROWID;
CREATE INDEX call_tags_call ON call_tags(call_id);
CREATE TABLE call_content(id INTEGER PRIMARY KEY, parameters TEXT, messages TEXT, reply TEXT,
  tool_calls TEXT, inputs TEXT);
-- Trigrams without positions: they give candidates whose text is then checked; the
-- vocabulary finds the trigrams a 1-2 character term starts (see buildWhere()).
CREATE VIRTUAL TABLE call_fts USING fts5(body, tokenize='trigram', detail=none);
CREATE VIRTUAL TABLE call_fts_terms USING fts5vocab(call_fts, 'row');

CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema_version', '1');
INSERT INTO calls(id, uid, run_id, program_path, prompt, tags, model, tokens_prompt, tokens_completion, status, started_at)
  VALUES (1, 'old-1', 'r1', '/p/a.pdl', 'answer', '', 'm', 10, 5, 'ok', 1700000000000),
         (2, 'old-2', 'r2', '/p/a.pdl', 'eval:judge', '["eval:judge"]', 'm', 7, 1, 'ok', 1700000001000),
         (3, 'old-3', 'r3', '', 'playground', '["playground"]', 'm', 3, 2, 'ok', 1700000002000),
         (4, 'old-4', 'r4', '/p/a.pdl', 'answer', '["eval:suite"]', 'm', 20, 10, 'ok', 1700000003000);
INSERT INTO call_tags(tag, call_id) VALUES ('eval:judge', 2), ('playground', 3), ('eval:suite', 4);
INSERT INTO call_content(id, reply) VALUES (1, 'r'), (2, 'Y'), (3, 'p'), (4, 'r');
