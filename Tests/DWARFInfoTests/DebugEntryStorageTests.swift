import Testing

@testable import DWARFInfo

/// `DebugEntry` keeps only the numbers an entry carries, packed in slot order (four inline, the
/// rest beside them): every attribute must read back exactly what was last set, whatever the
/// order of sets and clears, as a plain dictionary (the model) does.
@Suite struct DebugEntryStorageTests {
    /// Each numeric attribute as a setter and a getter of its raw 64 bits.
    static let attributes: [(set: @Sendable (inout DebugEntry, UInt64?) -> Void, get: @Sendable (DebugEntry) -> UInt64?)] = [
        ({ $0.byteSize = $1 }, { $0.byteSize }),
        ({ $0.bitSize = $1 }, { $0.bitSize }),
        ({ $0.dataMemberLocation = $1 }, { $0.dataMemberLocation }),
        ({ $0.dataBitOffset = $1 }, { $0.dataBitOffset }),
        ({ $0.legacyBitOffset = $1 }, { $0.legacyBitOffset }),
        ({ $0.type = $1.map(DebugOffset.init(rawValue:)) }, { $0.type?.rawValue }),
        ({ $0.typeSignature = $1 }, { $0.typeSignature }),
        ({ $0.definitionSignature = $1 }, { $0.definitionSignature }),
        ({ $0.definition = $1.map(DebugOffset.init(rawValue:)) }, { $0.definition?.rawValue }),
        ({ $0.specification = $1.map(DebugOffset.init(rawValue:)) }, { $0.specification?.rawValue }),
        ({ $0.upperBound = $1.map { Int64(bitPattern: $0) } }, { $0.upperBound.map { UInt64(bitPattern: $0) } }),
        ({ $0.count = $1 }, { $0.count }),
        ({ $0.alignment = $1 }, { $0.alignment }),
        ({ $0.language = $1 }, { $0.language }),
        ({ $0.encoding = $1 }, { $0.encoding }),
        ({ $0.runtimeClass = $1 }, { $0.runtimeClass }),
    ]

    @Test("random sets and clears of all sixteen attributes read back as the model says")
    func randomOperations() {
        // A fixed seed: the same sequence every run (SplitMix64).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var entry = DebugEntry(offset: DebugOffset(rawValue: 0), tag: DebugTag.member, parent: nil, unitRoot: 0)
        var model: [Int: UInt64] = [:]
        for _ in 0..<5_000 {
            let attribute = Int(next() % UInt64(Self.attributes.count))
            // Clears a third of the time, so that entries grow past four values and shrink back.
            let value: UInt64? = next() % 3 == 0 ? nil : next()
            Self.attributes[attribute].set(&entry, value)
            model[attribute] = value
            for (index, accessor) in Self.attributes.enumerated() {
                #expect(accessor.get(entry) == model[index], "attribute \(index)")
            }
        }
        // Every attribute at once, then all cleared.
        for (index, accessor) in Self.attributes.enumerated() { accessor.set(&entry, UInt64(index) << 40) }
        #expect(Self.attributes.enumerated().allSatisfy { $1.get(entry) == UInt64($0) << 40 })
        for accessor in Self.attributes { accessor.set(&entry, nil) }
        #expect(Self.attributes.allSatisfy { $0.get(entry) == nil })
    }
}
