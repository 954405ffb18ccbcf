-- A custom SQL Server workload for `probe capture --engine sqlserver --sql samples/workloads/sqlserver-hashbytes-sha512.sql`.
-- It reads the heap that `probe capture --workload hashbytes` builds in the probe's database; SHA2_512 instead of
-- SHA2_256 doubles the hash output and shows whether the cost sits in bcrypt or in the page allocation around it.
SELECT MAX(HASHBYTES('SHA2_512', ID)) AS max_hash
FROM dbo.probe_hb_demo
OPTION (MAXDOP 1);
