//! outorga-guia: the payment slip (guia de recolhimento) of a municipality or
//! state department, and the bank's answer to it.
//!
//! - [`barcode`]: the FEBRABAN arrecadação barcode (product 8, 44 digits) and
//!   its linha digitável (48 digits); [`check`] and [`check_line`] verify codes
//!   read or typed.
//! - [`pix`]: the static PIX BR Code of the Banco Central, with its CRC16.
//! - [`barcode_svg`] and [`qr_svg`]: the pictures a printed slip carries.
//! - [`read_return`]: the bank's return file of 150-position records, every
//!   problem said by line and positions; [`write_return`] writes one.
//!
//! Pure: no IO, no clock, no database. Dates and values are inputs. Every error
//! and problem is in Portuguese, for the person at the screen. The crate's
//! README names the specifications and the published examples the tests use.

mod barcode;
mod error;
mod pix;
mod retorno;
mod svg;

pub use barcode::{Convenio, Slip, ValueId, barcode, check, check_line};
pub use error::GuiaError;
pub use pix::{PixPayee, crc16, pix};
pub use retorno::{Header, LineProblem, Paid, ReturnFile, Trailer, read_return, write_return};
pub use svg::{HEIGHT_MM, NARROW_MM, barcode_svg, qr_svg};
