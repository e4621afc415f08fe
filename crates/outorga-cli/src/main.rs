//! The `outorga` command.

mod agenda;
mod anchor;
mod audit;
mod backup;
mod db;
mod import;
mod keys;
mod mail;
mod restore;
mod rulebooks;
mod serve;
mod users;

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
    /// Serve the JSON API (and its OpenAPI document) on the database, after
    /// bringing it up to date like `db init`.
    Serve(serve::ServeArgs),
    /// Users and their API tokens.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// The audit log.
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// What falls due in a jurisdiction (documents, inspections, vehicles to
    /// replace, procedural deadlines, thresholds, suspensions, debts).
    Agenda {
        /// The jurisdiction's id (e.g. santa-maria-de-jetiba).
        jurisdiction: String,
        /// The day (YYYY-MM-DD; default today).
        #[arg(long)]
        date: Option<chrono::NaiveDate>,
        /// How many days ahead.
        #[arg(long, default_value_t = 30)]
        days: u32,
        #[arg(long, env = "OUTORGA_RULEBOOKS")]
        rulebooks: Option<PathBuf>,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// The e-mail reminders of deadlines (what `serve --smtp-url` sends
    /// every hour): one round now, or the outbox.
    Reminders {
        #[command(subcommand)]
        command: mail::RemindersCommand,
    },
    /// Import a department's existing records — holders, drivers, vehicles,
    /// permits, past autos or their debts — from a CSV (`;` or `,`; UTF-8 or Latin-1) or .xlsx file
    /// (header line first); every row's outcome is listed with its line,
    /// field and reason. Exit 0: all taken; 1: some refused; 2: the file or
    /// its header cannot be read.
    Import {
        kind: import::Kind,
        file: PathBuf,
        #[arg(long)]
        jurisdiction: String,
        /// Show every row's outcome and write nothing.
        #[arg(long)]
        dry_run: bool,
        #[arg(long, env = "OUTORGA_RULEBOOKS")]
        rulebooks: Option<PathBuf>,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// Copy the database to a file (SQLite: VACUUM INTO; PostgreSQL: pg_dump).
    Backup {
        /// The file to write (must not exist).
        to: PathBuf,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// Restore a backup into a database that holds no data yet (SQLite: a
    /// new data folder or file; PostgreSQL: an empty database, with
    /// pg_restore), then open it and check its audit chain. Exit 0 when the
    /// chain is intact, 1 when it is not, 2 when nothing was restored.
    Restore {
        /// The backup file (from `outorga backup`).
        from: PathBuf,
        /// Replace the data the database holds (stop the server first).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
}

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Create a user. The password comes from standard input
    /// (--password-stdin) or $OUTORGA_PASSWORD, never from the command line.
    /// Exit 2 on bad input.
    Add {
        name: String,
        /// admin (administrador), clerk (atendente), inspector (fiscal),
        /// board (junta/comissão) or read-only (consulta).
        #[arg(long)]
        role: String,
        /// A jurisdiction the user may act in (repeat for more; none: all).
        #[arg(long = "jurisdiction")]
        jurisdictions: Vec<String>,
        /// Read the password from the first line of standard input.
        #[arg(long)]
        password_stdin: bool,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// Create an API token for a user and print it (once).
    Token {
        name: String,
        /// What the token is for (unique per user).
        #[arg(long)]
        label: String,
        /// When the token stops working: a day (YYYY-MM-DD, from 00:00 UTC)
        /// or a number of days from today (e.g. 90). Default: never.
        #[arg(long)]
        expires: Option<String>,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// Delete the record of sign-in attempts older than some days (audited).
    PruneSignIns {
        /// How many days of attempts to keep.
        #[arg(long, default_value_t = 90)]
        keep_days: u32,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
}

#[derive(Debug, Subcommand)]
enum AuditCommand {
    /// Verify the log (chain, seals) and every record against it: exit 0
    /// when all agree, 1 naming what does not.
    Verify {
        /// A checkpoint (the text `audit checkpoint` printed): also prove
        /// that nothing up to it was removed or rewritten (exit 1 if it was,
        /// 2 if the file cannot be read).
        #[arg(long, value_name = "FILE")]
        since: Option<PathBuf>,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// Seal a log written by a version of outorga without the audit key
    /// (once, after making sure the database is the genuine one): its chain
    /// is checked, then every entry gets its seal.
    Seal {
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// Record a checkpoint of the log and print it (a short signed text to
    /// print, publish or file).
    Checkpoint {
        /// Also write it to this new file.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        #[command(flatten)]
        database: users::DatabaseArgs,
    },
    /// Seal the whole log again with a new key (servers stopped); the old
    /// key is kept to check the checkpoints it signed.
    RotateKey {
        #[command(flatten)]
        database: users::DatabaseArgs,
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
    /// Write the JSON Schemas of the rulebook format (a service's file, a
    /// catalog, a jurisdiction.toml) into a folder, as published in
    /// docs/schema/.
    Schema {
        /// The folder to write them in.
        folder: PathBuf,
    },
    /// What changed between two versions of a law, rule by rule with the
    /// articles they cite, and article by article in the law's text
    /// (e.g. `taxi.toml taxi@2026-01-01.toml`). Exit 2 if either does not load.
    Diff {
        /// The earlier version's service file.
        before: PathBuf,
        /// The later version's service file.
        after: PathBuf,
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
        Command::Rulebook {
            command: RulebookCommand::Diff { before, after },
        } => rulebooks::diff(&before, &after),
        Command::Rulebook {
            command: RulebookCommand::Schema { folder },
        } => rulebooks::schema(&folder),
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
        Command::Serve(args) => serve::serve(args),
        Command::User {
            command:
                UserCommand::Add {
                    name,
                    role,
                    jurisdictions,
                    password_stdin,
                    database,
                },
        } => users::add(&database, &name, &role, jurisdictions, password_stdin),
        Command::User {
            command:
                UserCommand::Token {
                    name,
                    label,
                    expires,
                    database,
                },
        } => users::token(&database, &name, &label, expires.as_deref()),
        Command::User {
            command:
                UserCommand::PruneSignIns {
                    keep_days,
                    database,
                },
        } => users::prune_sign_ins(&database, keep_days),
        Command::Audit {
            command: AuditCommand::Verify { since, database },
        } => audit::verify(&database, since.as_deref()),
        Command::Audit {
            command: AuditCommand::Seal { database },
        } => audit::seal(&database),
        Command::Audit {
            command: AuditCommand::Checkpoint { out, database },
        } => audit::checkpoint(&database, "outorga audit checkpoint", out.as_deref()),
        Command::Audit {
            command: AuditCommand::RotateKey { database },
        } => audit::rotate_key(&database, "outorga audit rotate-key"),
        Command::Agenda {
            jurisdiction,
            date,
            days,
            rulebooks,
            database,
        } => agenda::agenda(&database, rulebooks, &jurisdiction, (date, days)),
        Command::Import {
            kind,
            file,
            jurisdiction,
            dry_run,
            rulebooks,
            database,
        } => import::import(&database, (kind, &jurisdiction), &file, dry_run, rulebooks),
        Command::Reminders { command } => mail::command(command),
        Command::Backup { to, database } => backup::backup(&database, &to),
        Command::Restore {
            from,
            force,
            database,
        } => restore::restore(&database, &from, force),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(2)
        }
    }
}
