-- Cached prompt tokens, priced on their own; and one row per batch written, so a batch sent again (its commit
-- was not acknowledged) is recognised before any of its rows is added twice.
ALTER TABLE infergate_usage ADD COLUMN cached_input_tokens BIGINT DEFAULT 0 NOT NULL;

CREATE TABLE infergate_usage_batch (
  batch_id VARCHAR(64) NOT NULL PRIMARY KEY,
  replica VARCHAR(64) NOT NULL,
  written_at BIGINT NOT NULL,
  row_count INT NOT NULL
);

INSERT INTO infergate_usage_batch (batch_id, replica, written_at, row_count)
  SELECT batch_id, 'before-v2', MAX(epoch_minute) * 60000, COUNT(*) FROM infergate_usage GROUP BY batch_id;
