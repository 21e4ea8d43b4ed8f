//! A method's coverage over time as a row of block characters (`▁▂▃▅▇█`): each cell is a stretch of the
//! candidates the method ran, its height the statements covered at the end of that stretch.

/// Block characters, lowest first.
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// `cells` characters for coverage `progress` ((candidates executed, statements covered) at each change)
/// over `executions` candidates, out of `statements`; empty before the first candidate.
pub(super) fn sparkline(progress: &[(u64, usize)], executions: u64, statements: usize, cells: usize) -> String {
    if executions == 0 || cells == 0 {
        return String::new();
    }
    let cells = cells.min(executions as usize);
    (1..=cells as u64)
        .map(|cell| {
            let until = executions * cell / cells as u64;
            let covered = progress.iter().take_while(|(at, _)| *at <= until).last().map_or(0, |p| p.1);
            let level = (covered * (BLOCKS.len() - 1)).checked_div(statements).unwrap_or(BLOCKS.len() - 1);
            BLOCKS[level.min(BLOCKS.len() - 1)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::sparkline;

    #[test]
    fn coverage_rises_cell_by_cell() {
        // 10 statements: 2 after 5 candidates, 10 after 80 of 100.
        assert_eq!(sparkline(&[(5, 2), (80, 10)], 100, 10, 10), "▂▂▂▂▂▂▂███");
        assert_eq!(sparkline(&[], 3, 10, 10), "▁▁▁", "no more cells than candidates");
        assert_eq!(sparkline(&[], 0, 10, 10), "");
    }
}
