import DCCrypto

/// Merkle trees over SHA-256 digests as Ligero commits to its tableau columns
/// (draft-google-cfrg-libzk §"Merkle trees"): n leaves at heap positions n..<2n, node j is
/// SHA-256(node 2j || node 2j+1), the root is node 1; n need not be a power of two.
package enum MerkleTree {
  /// The root of the tree over `leaves` (n ≥ 1).
  package static func root(leaves: [[UInt8]]) -> [UInt8] {
    let n = leaves.count
    var nodes = [[UInt8]](repeating: [], count: 2 * n)
    for i in 0..<n { nodes[n + i] = leaves[i] }
    for i in stride(from: n - 1, through: 1, by: -1) {
      nodes[i] = SHA256.hash(data: nodes[2 * i] + nodes[2 * i + 1])
    }
    return n == 1 ? nodes[1] : nodes[1]
  }

  /// Which heap nodes lie on the paths from `positions` to the root; nil when a position is out
  /// of range or repeated, or there is none (a proof of no leaves is defined to fail).
  static func marked(n: Int, positions: [Int]) -> [Bool]? {
    guard n >= 1, !positions.isEmpty else { return nil }
    var tree = [Bool](repeating: false, count: 2 * n)
    for p in positions {
      guard p >= 0, p < n, !tree[p + n] else { return nil }
      tree[p + n] = true
    }
    for i in stride(from: n - 1, through: 1, by: -1) { tree[i] = tree[2 * i] || tree[2 * i + 1] }
    return tree
  }

  /// The compressed proof for `positions`: the siblings the verifier cannot compute, from the
  /// deepest node up (draft §"Constructing a proof of inclusion").
  package static func compressedProof(leaves: [[UInt8]], positions: [Int]) -> [[UInt8]]? {
    let n = leaves.count
    guard let tree = marked(n: n, positions: positions) else { return nil }
    var nodes = [[UInt8]](repeating: [], count: 2 * n)
    for i in 0..<n { nodes[n + i] = leaves[i] }
    for i in stride(from: n - 1, through: 1, by: -1) {
      nodes[i] = SHA256.hash(data: nodes[2 * i] + nodes[2 * i + 1])
    }
    var proof: [[UInt8]] = []
    for i in stride(from: n - 1, through: 1, by: -1) where tree[i] {
      let child = tree[2 * i] ? 2 * i + 1 : 2 * i
      if !tree[child] { proof.append(nodes[child]) }
    }
    return proof
  }

  /// Whether `leaves` (digests) at `positions` belong to the n-leaf tree with `root`, given the
  /// compressed proof `path` (draft §"Verifying a proof of inclusion"). Every digest of the
  /// path must be used, and exactly once.
  package static func verify(
    n: Int, root: [UInt8], leaves: [[UInt8]], positions: [Int], path: [[UInt8]]
  ) -> Bool {
    guard leaves.count == positions.count, let tree = marked(n: n, positions: positions) else {
      return false
    }
    var nodes = [[UInt8]?](repeating: nil, count: 2 * n)
    var used = 0
    for i in stride(from: n - 1, through: 1, by: -1) where tree[i] {
      let child = tree[2 * i] ? 2 * i + 1 : 2 * i
      if !tree[child] {
        guard used < path.count else { return false }
        nodes[child] = path[used]
        used += 1
      }
    }
    guard used == path.count else { return false }
    for (leaf, p) in zip(leaves, positions) { nodes[p + n] = leaf }
    for i in stride(from: n - 1, through: 1, by: -1) {
      if let left = nodes[2 * i], let right = nodes[2 * i + 1] {
        nodes[i] = SHA256.hash(data: left + right)
      }
    }
    return nodes[1] == root
  }

  /// Heap depth of an n-leaf tree (the C++ `merkle_tree_len`), the longest path a leaf needs.
  package static func pathLength(_ n: Int) -> Int {
    var r = 1
    var pos = 2 * n - 1
    while pos > 1 {
      r += 1
      pos >>= 1
    }
    return r
  }
}
