/**
 * Whether a run of `mrf_files` starts an entry of a hospital's page (1) or repeats the one
 * before it (0), over `WINDOW w AS (PARTITION BY source ORDER BY started_at)` within one
 * hospital: a run that found its file unchanged (or skipped) again, as the source's run before it
 * did, or failed again as it did (a list taken down). A daily refresh makes one such run a day for
 * each file a hospital lists; the page lists each source's as one entry, "Read 300 times", and the
 * worker's retention job deletes the old repeats inside an entry, keeping its first and last run
 * and counting the rest on the first (`repeats_pruned`).
 */
export const STARTS_ENTRY = `CASE WHEN status IN ('unchanged', 'skipped', 'failed') AND lag(status) OVER w = status
                      AND (status <> 'failed' OR lag(error) OVER w IS NOT DISTINCT FROM error)
                     THEN 0 ELSE 1 END`;
