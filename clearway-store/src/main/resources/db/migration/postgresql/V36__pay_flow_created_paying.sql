-- Creation and the first transition in one statement. A new attempt whose deadline has not passed
-- is written already in PAYING (version 1, with the creation and WAIT_PAY -> PAYING history rows),
-- so the synchronous path commits three times per payment instead of four, and the id is drawn
-- from the sequence inside that statement: the trade order number is derived from it by the
-- database, with the same rule as the engine's OrderNumbers.derive.

-- A number in base 36 with lowercase digits and a leading '-' when negative (Java's
-- Long.toString(n, 36)).
CREATE FUNCTION clearway_base36(n BIGINT) RETURNS TEXT
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  digits CONSTANT TEXT := '0123456789abcdefghijklmnopqrstuvwxyz';
  v NUMERIC := abs(n::NUMERIC);
  s TEXT := '';
BEGIN
  LOOP
    s := substr(digits, (v % 36)::INT + 1, 1) || s;
    v := div(v, 36);
    EXIT WHEN v = 0;
  END LOOP;
  RETURN CASE WHEN n < 0 THEN '-' || s ELSE s END;
END
$$;

-- The trade order number of a flow: 't_' || user id || '_' || flow id, both in base 36.
CREATE FUNCTION pay_flow_trade_order_no(user_id BIGINT, flow_id BIGINT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT 't_' || clearway_base36(user_id) || '_' || clearway_base36(flow_id)
$$;
