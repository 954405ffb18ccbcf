-- A custom PostgreSQL workload: probe capture --engine postgres --sql samples/workloads/postgres-md5-vs-sha512.sql --threads 2 --duration 10s
-- Self-contained (the embedded server starts empty): it hashes generated strings with two algorithms, which
-- shows how the per-execution cost splits between MD5 and SHA-512 inside libcrypto.
SELECT sum(get_byte(digest('row-' || g::text, 'md5'), 0)) AS md5_bytes,
       sum(get_byte(digest('row-' || g::text, 'sha512'), 0)) AS sha512_bytes
FROM generate_series(1, 200000) AS g
