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
    fn map_of_nothing_is_nothing() {
        let items: Vec<u8> = Vec::new();
        assert!(map(&items, |x| *x).is_empty());
    }
}
