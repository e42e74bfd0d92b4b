import DCTestSupport
import Testing

@testable import DCZK

/// draft-google-cfrg-libzk, "Test Vectors for Merkle Tree".
@Suite struct MerkleTests {
  static let leaves = [
    "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a",
    "dbc1b4c900ffe48d575b5da5c638040125f65db0fe3e24494b76ea986457d986",
    "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
    "e52d9c508c502347344d8c07ad91cbd6068afc75ff6292f062a09ca381c89e71",
    "e77b9a9ae9e30b0dbdb6f510a264ef9de781501d7b6b92ae89eb059c5ab743db",
  ].map(hexBytes)
  static let root = hexBytes("f22f4501ffd3bdffcecc9e4cd6828a4479aeedd6aa484eb7c1f808ccf71c6e76")
  static let proof01 = [
    "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
    "f03808f5b8088c61286d505e8e93aa378991d9889ae2d874433ca06acabcd493",
  ].map(hexBytes)
  static let proof13 = [
    "e77b9a9ae9e30b0dbdb6f510a264ef9de781501d7b6b92ae89eb059c5ab743db",
    "084fed08b978af4d7d196a7446a86b58009e636b611db16211b65a9aadff29c5",
    "4bf5122f344554c53bde2ebb8cd2b7e3d1600ad631c385a5d7cce23c7785459a",
  ].map(hexBytes)

  @Test func rootAndProofsMatchTheDraft() {
    #expect(MerkleTree.root(leaves: Self.leaves) == Self.root)
    #expect(MerkleTree.compressedProof(leaves: Self.leaves, positions: [0, 1]) == Self.proof01)
    #expect(MerkleTree.compressedProof(leaves: Self.leaves, positions: [1, 3]) == Self.proof13)
  }

  @Test func verifiesTheDraftProofs() {
    let l = Self.leaves
    #expect(
      MerkleTree.verify(
        n: 5, root: Self.root, leaves: [l[0], l[1]], positions: [0, 1], path: Self.proof01))
    #expect(
      MerkleTree.verify(
        n: 5, root: Self.root, leaves: [l[1], l[3]], positions: [1, 3], path: Self.proof13))
  }

  @Test func refusesWrongOpenings() {
    let l = Self.leaves
    // A wrong leaf, a swapped position, a missing or extra digest, a repeated or
    // out-of-range position, no position at all.
    #expect(
      !MerkleTree.verify(
        n: 5, root: Self.root, leaves: [l[0], l[2]], positions: [0, 1], path: Self.proof01))
    #expect(
      !MerkleTree.verify(
        n: 5, root: Self.root, leaves: [l[3], l[1]], positions: [1, 3], path: Self.proof13))
    #expect(
      !MerkleTree.verify(
        n: 5, root: Self.root, leaves: [l[0], l[1]], positions: [0, 1],
        path: Array(Self.proof01.dropLast())))
    #expect(
      !MerkleTree.verify(
        n: 5, root: Self.root, leaves: [l[0], l[1]], positions: [0, 1],
        path: Self.proof01 + [Self.root]))
    #expect(
      !MerkleTree.verify(
        n: 5, root: Self.root, leaves: [l[1], l[1]], positions: [1, 1], path: Self.proof01))
    #expect(
      !MerkleTree.verify(n: 5, root: Self.root, leaves: [l[0]], positions: [5], path: []))
    #expect(!MerkleTree.verify(n: 5, root: Self.root, leaves: [], positions: [], path: []))
  }
}
