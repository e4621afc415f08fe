//! Load errors: file, line, column and what to fix.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub file: PathBuf,
    /// 1-based; 0 when the problem is with the file as a whole.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file.display(),
                self.line,
                self.column,
                self.message
            )
        }
    }
}

/// Every error found while loading, in the order found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadErrors(pub Vec<LoadError>);

impl fmt::Display for LoadErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

/// Collects errors for one file, turning byte spans into lines and columns.
#[derive(Debug)]
pub struct Diagnostics<'a> {
    file: &'a Path,
    source: &'a str,
    errors: Vec<LoadError>,
}

impl<'a> Diagnostics<'a> {
    pub fn new(file: &'a Path, source: &'a str) -> Self {
        Self {
            file,
            source,
            errors: Vec::new(),
        }
    }

    pub fn error(&mut self, span: Range<usize>, message: impl Into<String>) {
        let (line, column) = line_column(self.source, span.start);
        self.errors.push(LoadError {
            file: self.file.to_path_buf(),
            line,
            column,
            message: message.into(),
        });
    }

    pub fn len(&self) -> usize {
        self.errors.len()
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    pub fn into_errors(self) -> Vec<LoadError> {
        self.errors
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = source.get(..offset).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map_or(0, |tail| tail.chars().count())
        + 1;
    (line, column)
}
