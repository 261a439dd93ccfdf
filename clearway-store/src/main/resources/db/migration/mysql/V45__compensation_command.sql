-- The manual command that last moved a compensation, and the status it set: the compensation
-- worker rewrites last_error at each try, so a command's effect is found by these columns, which
-- only a command writes. On a sharded layout a command's effect and its decision are two
-- transactions; the next approval finds an effect whose decision was lost here.
ALTER TABLE attempt_compensation
  ADD COLUMN command_id BIGINT NULL,
  ADD COLUMN command_status VARCHAR(16) NULL;
