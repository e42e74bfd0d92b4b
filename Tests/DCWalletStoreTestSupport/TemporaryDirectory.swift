import DCTestSupport
import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
package struct TemporaryDirectory {
  package let path: String

  package init() throws {
    path =
      TestScratch.path("wallet-store-tests")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  package var databasePath: String { path + "/wallet.sqlite" }

  package func remove() { try? FileManager.default.removeItem(atPath: path) }
}
