//! Work split over the machine's cores, with results in input order: what `verify` does
//! record by record (parsing the journal, replaying steps) gives the same findings, in the same
//! order, whatever the number of threads.

/// At most this many threads: verify's work per record is small, and a host runs many
/// commands at once.
const MAX_WORKERS: usize = 4;

/// How many threads [`map_chunks`] uses for `items` things.
pub fn workers(items: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.clamp(1, MAX_WORKERS).min(items.max(1))
}

/// `f` over contiguous chunks of `items`, one chunk per worker, each chunk in order (so work
/// that carries something from one item to the next, like a replayed state, carries it
/// within a chunk); the results in the order of `items`. `f` gets each chunk with the index
/// of its first item. A panic in a worker is returned as that chunk's `Err`.
pub fn map_chunks<T, R, F>(items: &[T], f: F) -> Vec<std::thread::Result<Vec<R>>>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &[T]) -> Vec<R> + Sync,
{
    let n = workers(items.len());
    if n <= 1 {
        return vec![std::panic::catch_unwind(std::panic::AssertUnwindSafe(
            || f(0, items),
        ))];
    }
    let size = items.len().div_ceil(n);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(size)
            .enumerate()
            .map(|(k, chunk)| {
                let f = &f;
                scope.spawn(move || f(k * size, chunk))
            })
            .collect();
        handles.into_iter().map(|h| h.join()).collect()
    })
}

/// `f` over contiguous runs of `items`, about `per_worker` runs per worker, the workers
/// taking the next run as they finish one, so a run that costs more than the others (a
/// replay's turn of combats) does not leave the other cores idle; the results per run, in the
/// order of `items`. `f` gets each run with the index of its first item, and carries what it
/// must from one item to the next within the run. A panic in a run is that run's `Err`.
pub fn map_runs<T, R, F>(items: &[T], per_worker: usize, f: F) -> Vec<std::thread::Result<Vec<R>>>
where
    T: Sync,
    R: Send,
    F: Fn(usize, &[T]) -> Vec<R> + Sync,
{
    let n = workers(items.len());
    let size = items.len().div_ceil(n * per_worker.max(1)).max(1);
    let runs: Vec<(usize, &[T])> = items
        .chunks(size)
        .enumerate()
        .map(|(k, run)| (k * size, run))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let one_worker = || {
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&(first, run)) = runs.get(k) else {
                return done;
            };
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(first, run)));
            done.push((k, result));
        }
    };
    let mut results: Vec<(usize, std::thread::Result<Vec<R>>)> = if n <= 1 {
        one_worker()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n).map(|_| scope.spawn(one_worker)).collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    };
    results.sort_by_key(|(k, _)| *k);
    results.into_iter().map(|(_, r)| r).collect()
}

/// `f` of each item, computed on up to [`workers`] threads, in the order of `items`; None
/// where `f` panicked in a chunk (every item of that chunk).
pub fn map<T, R, F>(items: &[T], f: F) -> Vec<Option<R>>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync,
{
    let mut out = Vec::with_capacity(items.len());
    let size = items.len().div_ceil(workers(items.len())).max(1);
    let results = map_chunks(items, |_, chunk| chunk.iter().map(&f).collect());
    for (k, result) in results.into_iter().enumerate() {
        match result {
            Ok(rs) => out.extend(rs.into_iter().map(Some)),
            Err(_) => {
                let len = items.len().saturating_sub(k * size).min(size);
                out.extend((0..len).map(|_| None));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_keeps_the_order_of_the_items() {
        let items: Vec<u32> = (0..1000).collect();
        let doubled: Vec<u32> = map(&items, |x| x * 2).into_iter().flatten().collect();
        assert_eq!(doubled, items.iter().map(|x| x * 2).collect::<Vec<_>>());
    }

    #[test]
    fn map_chunks_gives_each_chunk_its_first_index() {
        let items: Vec<usize> = (0..37).collect();
        for result in map_chunks(&items, |first, chunk| {
            chunk
                .iter()
                .enumerate()
                .map(|(j, x)| (first + j, *x))
                .collect()
        }) {
            for (index, item) in result.unwrap() {
                assert_eq!(index, item);
            }
        }
    }

    #[test]
    fn map_runs_keeps_the_order_of_the_items_and_gives_each_run_its_first_index() {
        let items: Vec<usize> = (0..101).collect();
        let mut seen = Vec::new();
        for result in map_runs(&items, 3, |first, run| {
            run.iter()
                .enumerate()
                .map(|(j, x)| (first + j, *x))
                .collect()
        }) {
            seen.extend(result.unwrap());
        }
        assert_eq!(seen, items.iter().map(|&x| (x, x)).collect::<Vec<_>>());
    }

    #[test]
    fn map_runs_returns_a_panicking_run_as_its_error_and_finishes_the_others() {
        let items: Vec<usize> = (0..40).collect();
        let results = map_runs(&items, 4, |first, run| {
            assert!(!run.contains(&17), "a run that fails");
            vec![first]
        });
        let failed = results.iter().filter(|r| r.is_err()).count();
        assert_eq!(failed, 1);
        assert!(results.len() > 2);
    }

    #[test]
    fn map_runs_of_nothing_is_nothing() {
        let items: Vec<u8> = Vec::new();
        assert!(map_runs(&items, 3, |_, run| run.to_vec()).is_empty());
    }

    #[test]
    fn map_of_nothing_is_nothing() {
        let items: Vec<u8> = Vec::new();
        assert!(map(&items, |x| *x).is_empty());
    }
}
