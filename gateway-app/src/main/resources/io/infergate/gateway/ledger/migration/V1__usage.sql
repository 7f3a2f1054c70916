-- Usage per minute, tenant, key and model, as each replica's batches wrote it.
CREATE TABLE infergate_usage (
  batch_id VARCHAR(64) NOT NULL,
  epoch_minute BIGINT NOT NULL,
  tenant VARCHAR(256) NOT NULL,
  key_id VARCHAR(256) NOT NULL,
  model VARCHAR(256) NOT NULL,
  requests BIGINT NOT NULL,
  input_tokens BIGINT NOT NULL,
  output_tokens BIGINT NOT NULL,
  cost_nanos BIGINT NOT NULL,
  currency VARCHAR(16) NOT NULL,
  PRIMARY KEY (batch_id, epoch_minute, tenant, key_id, model)
);

CREATE INDEX infergate_usage_minute ON infergate_usage (epoch_minute);
