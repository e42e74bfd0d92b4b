import DCTestSupport
import Testing

@testable import DCZK

/// draft-google-cfrg-libzk, "Test Vectors for Fiat-Shamir" (over secp256k1's base field).
@Suite struct TranscriptTests {
  typealias K = PrimeField<Secp256k1BaseModulus>

  static let vectors: [[String]] = [
    [
      "8b297f0bffd583c6c6b6796385d5fd20a08665733b833970ebdd1054bbbc1b14",
      "0667c08ad7f38efec5f30dc8aa4f20d749cdcf96d63a770f9810ac5c0ca8dcb1",
      "c8037fc12d4da00b5dc7597e3042f33f72a06f970cb71fb6b103ebb5419d8a6b",
      "fbbcfa1eac48728fbfdacc1c21e2f78119457e0846337e46140e38e62856c4c5",
      "5358ae603691cc759faeb572fb6642654ea1c3dbc8f81d00276dd8c4df95aa58",
      "5266158c3c895dede5a23b6ce85a9f564b8059ebfcd1741f54497ec58189873e",
      "3ecea4b2343c007fc32f2aff40dc7320945f101ecae5d52494db21ad326e9739",
      "6462dd575e6b874118607212feec7ce5417ae3bf0f2e86604596f35d48bbaea2",
      "6d56c703c369edea3595db6b958241580ae9b4a76fead961413ed9e9e5852dcd",
      "6d31073cee650212a71b7b13e9f951e00ef3b14a008a79dd95047b26a4a83d06",
      "1b9e2a6666da63c43e52227d91a8a7f0bd5311f63c2e3a18839133375639e6cb",
      "332ea49dd23dd4745631ecbb15696192b1fa127256baf7a0483fd27db6f09a48",
      "43e735927ccbdc4d5ce912675d638d6d3dc8eef3def34504304e938846f157d6",
      "dc4a8868ae75e733a7257a8589230392a98d78594836dfccd01304742b5b3ad5",
      "976353931711c634f2691e507b119fd7f6e653d419a2620676122db08db18765",
      "332729ab436dca654866a9382deaee0add6fb7e90a80261f1488e56598e8bc99",
    ],
    [
      "609db3e9a8f548df038519fa46cef23eb8c6553d3c1f698604e60a51613a738e",
      "1cb69cb31999eb88e83c7586aac53f5e3286b084b0cf9e43619b48df01e0a310",
      "3bf36e3ddc690a1b12b417628c115959b373d056c90c42dc2417baf46f538868",
      "e336594f29dcda52e48896517b5cdb2d062ffd861ab02db5f8ca197aacc635f6",
      "c1f396a8bad16bb0f57da6d380402a25b571bd4691226d11449a741440e325c8",
      "5195336ec73751de066e3a8939b40c3c5555f1a513486dfc50dcf4c2d47e6ff2",
      "8dcf872f3ded2b7ed1d1ee9a2b125bedc6eacd3c09b3a4a5286d8fc2fc3a6634",
      "950dd2ef7be25eab686a6688497962ee4ad521da12b9ff3d8e56ad9435885b12",
      "e14389d1d8448678cac33fdbc9aab20dba019e75149d170dd2f353891cd4b84f",
      "e84906c09cd6423865baf64e48027cc598d52bdb90b17524c87ea892e53b5200",
      "493cea587f1ec5622c04221cd6e5a41c26c1c1c24c0375f7aaa367d9678d83bc",
      "5aca0010aced30bcb3b84a7f10ea39c4269ab7c92fcb6cff52958d8921ef2cc5",
      "4498fa8340f41467c0fa813bd0ca83ef6e1c4b85c7b1168a94339fd9e8296139",
      "f9a95b738a8e775421b1baa503abbeed2d283b236ebba25e1954b3c993d30a3d",
      "98178711d03a0b1204ebb56b37bd3a2724dfb08e4dc925609391768b126d21f2",
      "79251f49534f5c4b10b798b2dbf6e80a3b07593f616ce6a9617ccc61040aac78",
    ],
    [
      "ae1a921288590205fc24543303ff527476359b8db4a983b2886a133b02f3217e",
      "8c5d52a04b295f9fdb45ab66100fa00ca32c9634aa87cbbdb2bc3e1912459feb",
      "12f82963b5b242156f6e9eb756eddee7652b60c7d6394403f7bd995e0b9bcd9c",
      "880aa50b049b3939055deb7933749d338bb3fb5f64a9adf95019e6cfc232995c",
      "f8558f693f0fa6df20a37147a898fb4c678831f566d80113bbe2cdcd18285da2",
      "bbcc8d9b46f88bc8c6cec0ad2d5e49508b7db91d548548eddc61800de1329e1c",
      "479a17244398caae8155a73438a22583df7de10a8a2e12ad53ddd3bc7305fac9",
      "9ba1917f1227932250288a843f64b4e7b7f47a5fbc16c111f6e1f76235ccf38c",
      "d1582138045d1636fb7f677c9e8a4a4143ce2b2bb54fb4f49fb0ad1fee5df6b4",
      "5331e5b8508f79c017a8dfbbb805f3f8c5e3e4bc417e44849b9212439646331",
      "b6b95862194ca52dcaa9ee651b7fc5b708f43feae108bb9a7f95213f4d069048",
      "e86b1602f0a54c4e237867ebaf05e7581464fd238e50f6ed9c3cea63909c8e60",
      "b7280439f3b21b113ff29cefe39292d5e2d137709c3d3cec36473a0f97a24e62",
      "beaa5e08257d232506fb3e46c6daa29e0859c34c7d0cd673bc6706ee261ae059",
      "691ead55728cd087a1952b22b6628ba4e26fbefc8debeec5e6fbc3a16f637be",
      "47dc31f6d8bc9c44290781176df3e4b95ac8793a4a42fa5859c564d92d6d5af5",
    ],
  ]

  func expectElements(_ transcript: inout ZKTranscript, _ expected: [String]) {
    for want in expected {
      let got: K = transcript.element()
      let padded = String(repeating: "0", count: 64 - want.count) + want
      #expect(hexBE(got) == padded)
    }
  }

  @Test func draftVectors() {
    var transcript = ZKTranscript(sessionID: Array("test".utf8))
    transcript.write(bytes: (0..<100).map { UInt8($0) })
    expectElements(&transcript, Self.vectors[0])
    transcript.write(element: K(7))
    expectElements(&transcript, Self.vectors[1])
    transcript.write(elements: [K(8), K(9)])
    expectElements(&transcript, Self.vectors[2])
    // Vector 4: naturals.
    transcript.write(bytes: Array("nats".utf8))
    let bounds = [
      1, 1, 1, 2, 2, 2, 7, 7, 7, 7, 32, 32, 32, 32, 256, 256, 256, 256, 1000, 10000, 60000, 65535,
      100000, 100000,
    ]
    let nats = bounds.map { transcript.nat($0) }
    #expect(
      nats == [
        0, 0, 0, 0, 0, 0, 3, 0, 4, 5, 10, 30, 27, 22, 100, 189, 3, 92, 999, 3105, 40886, 51590,
        56367, 10678,
      ])
    // Vector 5: choices without replacement. The draft's prose says the 6 bytes "choice"; its
    // numbers come after "choose" (lib/random/transcript_test.cc, which they are taken from).
    transcript.write(bytes: Array("choose".utf8))
    #expect(
      transcript.choose(31, 20) == [
        10, 29, 30, 11, 4, 15, 16, 28, 19, 21, 25, 18, 17, 3, 5, 23, 24, 22, 6, 1,
      ])
    #expect(
      transcript.choose(32, 20) == [
        3, 17, 18, 8, 30, 7, 14, 19, 25, 23, 12, 4, 31, 16, 0, 6, 20, 27, 11, 10,
      ])
    #expect(
      transcript.choose(63, 20) == [
        9, 56, 61, 45, 35, 53, 51, 3, 39, 32, 31, 6, 59, 58, 54, 22, 27, 62, 55, 19,
      ])
    #expect(
      transcript.choose(64, 20) == [
        12, 52, 39, 17, 51, 38, 58, 2, 28, 27, 46, 63, 61, 50, 40, 55, 47, 13, 56, 32,
      ])
    #expect(
      transcript.choose(1000, 20) == [
        157, 668, 572, 138, 913, 994, 797, 249, 440, 723, 489, 241, 383, 108, 710, 341, 406, 585,
        42, 692,
      ])
    #expect(
      transcript.choose(65535, 20) == [
        40745, 48408, 17108, 44500, 53993, 10008, 24910, 52200, 61265, 54989, 41237, 25958, 28697,
        61187, 34729, 3525, 9005, 38627, 9724, 12169,
      ])
  }
}
