//! Finding a sequence by what a person calls it: its name or its index.

use crate::model::Model;
use std::fmt;

impl Model {
    /// The index of the sequence `which` names: a sequence name (without regard to ASCII
    /// case; the first of equal names), else an index into [`Model::sequences`]. A name
    /// wins over an index, so a sequence named `2` is found by that name.
    ///
    /// ```
    /// let model = mdlx::mdx::from_bytes(include_bytes!("../../../../examples/cube.mdx")).unwrap();
    /// assert_eq!(model.find_sequence("spin"), Ok(1));
    /// assert_eq!(model.find_sequence("1"), Ok(1));
    /// let e = model.find_sequence("Walk").unwrap_err();
    /// assert_eq!(e.to_string(), "no sequence \"Walk\"; the model has 0: Stand, 1: Spin");
    /// ```
    pub fn find_sequence(&self, which: &str) -> Result<usize, NoSuchSequence> {
        if let Some(i) = self
            .sequences
            .iter()
            .position(|s| s.name.text().eq_ignore_ascii_case(which))
        {
            return Ok(i);
        }
        match which.parse::<usize>() {
            Ok(i) if i < self.sequences.len() => Ok(i),
            _ => Err(NoSuchSequence {
                which: which.to_string(),
                names: (self.sequences.iter())
                    .map(|s| s.name.text().into_owned())
                    .collect(),
            }),
        }
    }
}

/// A sequence [`Model::find_sequence`] did not find; it prints what there is instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoSuchSequence {
    /// The name or index asked for.
    pub which: String,
    /// The model's sequence names, by index.
    pub names: Vec<String>,
}

impl fmt::Display for NoSuchSequence {
    /// `no sequence "Walk"; the model has 0: Stand, 1: Spin`, or `no sequence "Walk": the
    /// model has no sequences`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.names.is_empty() {
            return write!(
                f,
                "no sequence {:?}: the model has no sequences",
                self.which
            );
        }
        write!(f, "no sequence {:?}; the model has ", self.which)?;
        for (i, name) in self.names.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{i}: {name}")?;
        }
        Ok(())
    }
}

impl std::error::Error for NoSuchSequence {}

#[cfg(test)]
mod tests {
    use crate::model::{FixedString, Model, Sequence};

    fn model(names: &[&str]) -> Model {
        Model {
            sequences: names
                .iter()
                .map(|n| Sequence {
                    name: FixedString::from_field(n.as_bytes()),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_name_is_found_without_regard_to_case_and_before_an_index() {
        let m = model(&["Stand", "Walk", "1", "walk"]);
        assert_eq!(m.find_sequence("WALK"), Ok(1));
        assert_eq!(m.find_sequence("stand"), Ok(0));
        // "1" names sequence 2 before it is taken as index 1.
        assert_eq!(m.find_sequence("1"), Ok(2));
        assert_eq!(m.find_sequence("3"), Ok(3));
    }

    #[test]
    fn what_is_not_there_is_refused_naming_what_is() {
        let m = model(&["Stand", "Walk"]);
        let e = m.find_sequence("2").unwrap_err();
        assert_eq!(e.which, "2");
        assert_eq!(
            e.to_string(),
            "no sequence \"2\"; the model has 0: Stand, 1: Walk"
        );
        assert!(m.find_sequence("-1").is_err());
        assert!(m.find_sequence("").is_err());
        let e = model(&[]).find_sequence("0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no sequence \"0\": the model has no sequences"
        );
    }
}
