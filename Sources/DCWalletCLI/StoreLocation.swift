import DCIssuer
import DCVerifier

/// `--store sqlite:PATH` or `--store postgresql://…` (issue 31): where a server keeps its
/// state. SQLite is the default, one file on this machine; PostgreSQL lets several instances
/// behind a load balancer share their state.
enum StoreLocation: Equatable {
  case sqlite(path: String)
  case postgreSQL(url: String)

  /// The option, for every command that opens a server's state.
  static func option(defaultFile: String) -> CommandSpec.Option {
    .value(
      "store", "URL",
      "where the state lives: sqlite:PATH (default: \(defaultFile)) or postgresql://USER@HOST/DB (shared by several instances)"
    )
  }

  /// The location `--store` names, or the SQLite file `defaultPath` without it.
  init(_ text: String?, defaultPath: String, command: String) throws {
    guard let text else {
      self = .sqlite(path: defaultPath)
      return
    }
    if text.hasPrefix("sqlite:"), text.count > "sqlite:".count {
      self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
    } else if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
      self = .postgreSQL(url: text)
    } else {
      throw UsageError(
        "--store is sqlite:PATH or a postgresql:// URL, not '\(text)'", command: command)
    }
  }

  /// The issuer's state store here.
  func issuerStore() throws -> any IssuerStateStore {
    do {
      switch self {
      case .sqlite(let path): return try SQLiteIssuerStateStore(path: path)
      case .postgreSQL(let url): return try PostgreSQLIssuerStateStore(url: url)
      }
    } catch {
      throw CommandFailure(error.reason)
    }
  }

  /// The verifier's transaction store here.
  func verifierStore() throws -> any PresentationTransactionStore {
    do {
      switch self {
      case .sqlite(let path): return try SQLitePresentationTransactionStore(path: path)
      case .postgreSQL(let url): return try PostgreSQLPresentationTransactionStore(url: url)
      }
    } catch {
      throw CommandFailure(error.reason)
    }
  }
}
