//! The `outorga` command.

mod db;
mod rulebooks;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "outorga",
    version,
    about = "Transport permits and their laws, as code"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate rulebooks and summarise them.
    Rulebook {
        #[command(subcommand)]
        command: RulebookCommand,
    },
    /// Run scenario files (shared/spec/scenarios.md).
    Scenarios {
        #[command(subcommand)]
        command: ScenariosCommand,
    },
    /// The system of record's database.
    Db {
        #[command(subcommand)]
        command: DbCommand,
    },
}

#[derive(Debug, Subcommand)]
enum DbCommand {
    /// Create or migrate the database and record the jurisdictions of the
    /// rulebooks folder with their rulebooks. Exit 2 on errors.
    Init {
        /// PostgreSQL (`postgres://…`) or SQLite (`sqlite://…`) URL (default:
        /// SQLite in the data folder).
        #[arg(long, env = "OUTORGA_DATABASE_URL")]
        database_url: Option<String>,
        /// The data folder for the default SQLite database.
        #[arg(long, default_value = "data")]
        data: PathBuf,
        /// Where the rulebooks are (default: $OUTORGA_RULEBOOKS, or a `rulebooks`
        /// folder in the current folder or above it).
        #[arg(long, env = "OUTORGA_RULEBOOKS")]
        rulebooks: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
enum RulebookCommand {
    /// Load and validate rulebooks; print counts per section. Exit 2 on errors.
    Check {
        /// A folder of jurisdictions, one jurisdiction's folder or one rulebook file
        /// (default: the rulebooks folder).
        path: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
enum ScenariosCommand {
    /// Run every case in the given files or folders (*.yaml, *.yml, recursively).
    Run {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print each case's full result with its citations.
        #[arg(long)]
        explain: bool,
        /// Where the rulebooks are (default: $OUTORGA_RULEBOOKS, or a `rulebooks`
        /// folder in the current folder or above it).
        #[arg(long, env = "OUTORGA_RULEBOOKS")]
        rulebooks: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rulebook {
            command: RulebookCommand::Check { path },
        } => rulebooks::check(path),
        Command::Scenarios {
            command:
                ScenariosCommand::Run {
                    paths,
                    explain,
                    rulebooks,
                },
        } => rulebooks::run_scenarios(&paths, explain, rulebooks),
        Command::Db {
            command:
                DbCommand::Init {
                    database_url,
                    data,
                    rulebooks,
                },
        } => db::init(database_url, &data, rulebooks),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}
