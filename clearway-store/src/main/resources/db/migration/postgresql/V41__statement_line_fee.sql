-- A run first asks whether its file has grouped FEE lines (a payout or fee line for many payments),
-- which a wallet's or PSP's daily file has a handful of, if any. Without an index that question
-- read every line of the file through the primary key (a million heap rows for a million-line
-- file); with this partial index it reads only the FEE lines. The COPY of a file pays one predicate
-- per line and an entry per FEE line.
CREATE INDEX statement_line_fee ON statement_line (file_id) WHERE kind = 'FEE';
