//! Reading a PDF back as its reader would, with Debian's poppler-utils
//! (`pdftotext`, `pdftoppm`) and zbar-tools (`zbarimg`): the tests of every
//! crate that prints check what the paper says and where its QR codes lead.

use std::io::Write;
use std::process::{Command, Stdio};

/// The text of a PDF, in reading order (`pdftotext -layout`).
pub fn text(pdf: &[u8]) -> std::io::Result<String> {
    let mut child = Command::new("pdftotext")
        .args(["-layout", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()?;
    child
        .stdin
        .take()
        .ok_or_else(|| std::io::Error::other("pdftotext has no input"))?
        .write_all(pdf)?;
    let out = child.wait_with_output()?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// What the QR codes of a PDF's pages say, decoded from the pages rendered
/// at 300 dpi (`pdftoppm`, then `zbarimg`).
pub fn qr_codes(pdf: &[u8]) -> std::io::Result<Vec<String>> {
    let dir = std::env::temp_dir().join(format!(
        "outorga-readback-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("paper.pdf");
    std::fs::write(&file, pdf)?;
    let status = Command::new("pdftoppm")
        .args(["-r", "300", "-png"])
        .arg(&file)
        .arg(dir.join("page"))
        .status()?;
    if !status.success() {
        return Err(std::io::Error::other("pdftoppm could not render the PDF"));
    }
    let mut codes = Vec::new();
    let mut pages: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    pages.sort();
    for page in pages {
        let out = Command::new("zbarimg")
            .args(["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable"])
            .arg(&page)
            .output()?;
        codes.extend(
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string),
        );
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(codes)
}
