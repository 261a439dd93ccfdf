-- The baseline of `clearway bench`: one single-row UPDATE per transaction.
\set id random(1, 100000)
UPDATE bench_account SET balance = balance + 1 WHERE id = :id;
