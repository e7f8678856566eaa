//! Words for counts in messages people read.

/// `1 error`, `0 errors`, `2 errors`: the count with the noun in the number it takes.
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_the_rest_plural() {
        assert_eq!(count(0, "file", "files"), "0 files");
        assert_eq!(count(1, "file", "files"), "1 file");
        assert_eq!(count(2, "info", "infos"), "2 infos");
        assert_eq!(count(1, "vertex", "vertices"), "1 vertex");
        assert_eq!(count(11, "vertex", "vertices"), "11 vertices");
    }
}
