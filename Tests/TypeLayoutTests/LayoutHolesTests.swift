import Testing
import TypeLayout

private struct Padded { var a: Bool; var b: Int; var c: Bool }
private struct PaddedReordered { var b: Int; var a: Bool; var c: Bool }
private struct Tight { var a: Int; var b: Int32; var c: Int16; var d: Int8 }
private struct NineBytes { var wide: Int64; var narrow: Int8 }
private struct TailPacked { var inner: NineBytes; var tail: Int8 }
private struct Odd { var odd: NineBytes; var whole: Int64; var byte: Int8 }
private struct OddReordered { var whole: Int64; var odd: NineBytes; var byte: Int8 }

@Suite struct LayoutHolesTests {
    let alignments = Measured.alignments([Bool.self, Int.self, Int8.self, Int16.self, Int32.self, Int64.self])

    /// Bytes not used by any field, by the compiler's own numbers.
    func wasted<T>(_: T.Type, fieldTypes: [Any.Type]) -> Int {
        MemoryLayout<T>.stride - fieldTypes.reduce(0) { $0 + Measured.sizeAndAlignment($1).size }
    }

    @Test func holeAndTailPaddingMatchTheCompiler() throws {
        let layout = Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)])
        let holes = LayoutHoles(layout, alignmentOf: alignments.alignment(of:))
        #expect(holes.isComplete)
        #expect(holes.wastedBytes == wasted(Padded.self, fieldTypes: [Bool.self, Int.self, Bool.self]))
        #expect(holes.holeCount == 1)
        let hole = try #require(holes.rows.first { $0.kind == .hole })
        #expect(hole.offset == MemoryLayout<Bool>.size)
        #expect(hole.size == MemoryLayout<Padded>.offset(of: \.b).map { $0 - MemoryLayout<Bool>.size })
        #expect(holes.paddingBytes == MemoryLayout<Padded>.stride - MemoryLayout<Padded>.size)
        #expect(holes.rows.map(\.kind) == [.field, .hole, .field, .field, .padding])
    }

    @Test func reorderSuggestionIsWhatTheCompilerDoesWithThatOrder() throws {
        let layout = Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)])
        let suggestion = try #require(LayoutHoles(layout, alignmentOf: alignments.alignment(of:)).reorder)
        #expect(suggestion.order == ["b", "a", "c"])
        #expect(suggestion.suggestedSize == MemoryLayout<PaddedReordered>.size)
        #expect(suggestion.suggestedStride == MemoryLayout<PaddedReordered>.stride)
        #expect(suggestion.savedBytes == MemoryLayout<Padded>.stride - MemoryLayout<PaddedReordered>.stride)
    }

    @Test func oddSizedFieldsGoAfterWholeOnesOfTheSameAlignment() throws {
        var table = alignments
        table.set(MemoryLayout<NineBytes>.alignment, for: String(reflecting: NineBytes.self))
        let layout = Measured.structLayout(Odd.self, name: "Demo.Odd", [("odd", \Odd.odd), ("whole", \Odd.whole), ("byte", \Odd.byte)])
        let suggestion = try #require(LayoutHoles(layout, alignmentOf: table.alignment(of:)).reorder)
        #expect(suggestion.order == ["whole", "odd", "byte"])
        #expect(suggestion.suggestedSize == MemoryLayout<OddReordered>.size)
        #expect(suggestion.suggestedStride == MemoryLayout<OddReordered>.stride)
    }

    @Test func swiftPacksIntoTheTailOfANestedStruct() {
        // The compiler puts `tail` inside NineBytes's tail padding; no hole is reported there.
        let layout = Measured.structLayout(
            TailPacked.self, name: "Demo.TailPacked", [("inner", \TailPacked.inner), ("tail", \TailPacked.tail)])
        let holes = LayoutHoles(layout)
        #expect(holes.holeCount == 0)
        #expect(holes.wastedBytes == wasted(TailPacked.self, fieldTypes: [NineBytes.self, Int8.self]))
    }

    @Test func aTightStructHasNoSuggestion() {
        let layout = Measured.structLayout(
            Tight.self, name: "Demo.Tight", [("a", \Tight.a), ("b", \Tight.b), ("c", \Tight.c), ("d", \Tight.d)])
        let holes = LayoutHoles(layout, alignmentOf: alignments.alignment(of:))
        #expect(holes.holeCount == 0)
        #expect(holes.reorder == nil)
        #expect(holes.wastedBytes == wasted(Tight.self, fieldTypes: [Int.self, Int32.self, Int16.self, Int8.self]))
    }

    @Test func unknownAlignmentGivesNoSuggestionButStillShowsHoles() {
        let layout = Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)])
        let holes = LayoutHoles(layout)
        #expect(holes.reorder == nil)
        #expect(holes.reorderNote?.contains("alignment of field 'a'") == true)
        #expect(holes.holeCount == 1)
    }

    @Test func wrongAlignmentsAreCaughtByReplayingTheObservedLayout() {
        var wrong = LayoutAlignments()
        for name in ["Swift.Bool", "Swift.Int"] { wrong.set(1, for: name) }
        let layout = Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)])
        let holes = LayoutHoles(layout, alignmentOf: wrong.alignment(of:))
        #expect(holes.reorder == nil)
        #expect(holes.reorderNote?.contains("field 'b' is at offset") == true)
    }

    @Test func unknownSizesAreNotGuessed() {
        var layout = Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)])
        layout.fields[0].size = nil
        let holes = LayoutHoles(layout, alignmentOf: alignments.alignment(of:))
        #expect(!holes.isComplete)
        #expect(holes.holeCount == 0, "the bytes after a field of unknown size are not called a hole")
        #expect(holes.reorder == nil)
        #expect(holes.textReport().contains("note: the size of field 'a' is unknown"))
    }

    @Test func optionalsHaveTheirPayloadsAlignment() {
        #expect(alignments.alignment(ofType: "Swift.Int?") == MemoryLayout<Int?>.alignment)
        #expect(alignments.alignment(ofType: "Swift.Optional<Swift.Int16>") == MemoryLayout<Int16?>.alignment)
        #expect(alignments.alignment(ofType: "Demo.Unknown") == nil)
    }

    @Test func classesShowTheHeaderAndTheirOwnFields() {
        let reference = MemoryLayout<AnyObject>.size
        let layout = TypeLayout(
            name: "Demo.Node", kind: .class, size: reference, alignment: reference, stride: reference,
            instanceSize: 4 * reference, instanceAlignment: reference,
            fields: [
                FieldLayout(name: "flag", type: "Swift.Bool", offset: 2 * reference, size: MemoryLayout<Bool>.size),
                FieldLayout(name: "count", type: "Swift.Int", offset: 3 * reference, size: MemoryLayout<Int>.size),
            ]
        )
        let holes = LayoutHoles(layout, alignmentOf: alignments.alignment(of:))
        #expect(holes.rows.map(\.kind) == [.header, .field, .hole, .field])
        #expect(holes.rows.first?.size == 2 * reference)
        #expect(holes.reorder?.order == ["count", "flag"])
        #expect(holes.reorder?.suggestedSize == 3 * reference + MemoryLayout<Bool>.size)
    }

    @Test func textReportReadsLikePahole() {
        let layout = Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)])
        let holes = LayoutHoles(layout, alignmentOf: alignments.alignment(of:))
        let text = holes.textReport()
        #expect(
            text.hasPrefix(
                "struct Demo.Padded  size \(MemoryLayout<Padded>.size), alignment \(MemoryLayout<Padded>.alignment), stride \(MemoryLayout<Padded>.stride)\n"
            ))
        #expect(text.contains("---- hole, \(holes.holeBytes) bytes ----"))
        #expect(text.contains("reorder to save \(holes.reorder?.savedBytes ?? -1) bytes: b, a, c"))
        let tight = LayoutHoles(
            Measured.structLayout(Tight.self, name: "Demo.Tight", [("a", \Tight.a), ("b", \Tight.b), ("c", \Tight.c), ("d", \Tight.d)]))
        let summary = LayoutHoles.summaryLine([holes, tight])
        #expect(summary.hasPrefix("total: \(holes.wastedBytes + tight.wastedBytes) bytes wasted"))
        #expect(summary.contains("in \(tight.wastedBytes > 0 ? 2 : 1) of 2 types"))
    }

    @Test func totalsOverHostileSizesSaturateInsteadOfTrapping() {
        let huge = TypeLayout(
            name: "Demo.Huge", kind: .struct, size: Int.max, alignment: 1, stride: Int.max,
            fields: [FieldLayout(name: "last", type: "T", offset: Int.max - 1, size: 1)])
        let analyses = [LayoutHoles(huge), LayoutHoles(huge)]
        #expect(analyses[0].holeBytes == Int.max - 1)
        #expect(LayoutHoles.summaryLine(analyses).hasPrefix("total: \(Int.max) bytes wasted"))
        #expect(LayoutHolesReport(analyses).total.wastedBytes == Int.max)
    }

    @Test func cacheLineMarkersOverHostileOffsetsAreCappedAndCounted() {
        let huge = TypeLayout(
            name: "Demo.Huge", kind: .struct, size: Int.max, alignment: 1, stride: Int.max,
            fields: [
                FieldLayout(name: "first", type: "T", offset: 0, size: 1),
                FieldLayout(name: "last", type: "T", offset: Int.max - 8, size: 8),
            ])
        let holes = LayoutHoles(huge)
        let text = holes.textReport(cacheLineSize: 64)
        #expect(text.components(separatedBy: "---- cache line ").count - 1 == 256)
        #expect(text.contains("cache lines: \((Int.max - 1) / 64 + 1) of 64 bytes (markers shown for the first 256 boundaries)"))
        #expect(holes.cacheLines(lineSize: 64).straddling.isEmpty)
        #expect(!holes.textReport(cacheLineSize: nil).contains("cache line"))
    }
}

private struct ExpandDeep { var flag: Bool; var value: Int64 }
private struct ExpandInner { var tag: UInt8; var deep: ExpandDeep; var count: Int32 }
private struct ExpandOuter { var first: UInt16; var inner: ExpandInner; var last: UInt8 }

@Suite struct LayoutExpansionTests {
    let deep = Measured.structLayout(ExpandDeep.self, name: "Demo.ExpandDeep", [("flag", \ExpandDeep.flag), ("value", \ExpandDeep.value)])
    let inner = Measured.structLayout(
        ExpandInner.self, name: "Demo.ExpandInner",
        [("tag", \ExpandInner.tag), ("deep", \ExpandInner.deep), ("count", \ExpandInner.count)])
    let outer = Measured.structLayout(
        ExpandOuter.self, name: "Demo.ExpandOuter",
        [("first", \ExpandOuter.first), ("inner", \ExpandOuter.inner), ("last", \ExpandOuter.last)])

    /// The expansion over the three types; the fields' type names are `String(reflecting:)`.
    func expansion(depth: Int) -> LayoutExpansion {
        var renamed = [deep, inner, outer]
        renamed[0].name = String(reflecting: ExpandDeep.self)
        renamed[1].name = String(reflecting: ExpandInner.self)
        return LayoutExpansion(depth: depth, types: renamed)
    }

    @Test func nestedFieldsAppearAtTheirAbsoluteOffsets() throws {
        let rows = LayoutHoles(outer).expandedRows(expansion(depth: 2)).rows
        func row(_ name: String, depth: Int) -> LayoutHoles.Row? {
            rows.first { $0.depth == depth && $0.row.kind == .field && $0.row.name == name }?.row
        }
        // Composed key paths give the compiler's own absolute offsets.
        #expect(row("tag", depth: 1)?.offset == MemoryLayout<ExpandOuter>.offset(of: \.inner.tag))
        #expect(row("count", depth: 1)?.offset == MemoryLayout<ExpandOuter>.offset(of: \.inner.count))
        #expect(row("flag", depth: 2)?.offset == MemoryLayout<ExpandOuter>.offset(of: \.inner.deep.flag))
        #expect(row("value", depth: 2)?.offset == MemoryLayout<ExpandOuter>.offset(of: \.inner.deep.value))
        #expect(row("last", depth: 0)?.offset == MemoryLayout<ExpandOuter>.offset(of: \.last))
        // The hole inside ExpandDeep, between flag and value, shows at depth 2.
        let flagEnd = try #require(MemoryLayout<ExpandOuter>.offset(of: \.inner.deep.flag)) + MemoryLayout<Bool>.size
        let valueStart = try #require(MemoryLayout<ExpandOuter>.offset(of: \.inner.deep.value))
        #expect(rows.contains { $0.depth == 2 && $0.row.kind == .hole && $0.row.offset == flagEnd && $0.row.size == valueStart - flagEnd })
        // Rows stay in offset order.
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.row.offset <= $1.row.offset })
    }

    @Test func depthLimitsTheExpansionAndTheTextIndents() throws {
        let one = LayoutHoles(outer).expandedRows(expansion(depth: 1)).rows
        #expect(one.map(\.depth).max() == 1 && one.contains { $0.row.name == "deep" } && !one.contains { $0.row.name == "flag" })
        let none = LayoutHoles(outer).expandedRows(nil).rows
        #expect(none.map(\.row) == LayoutHoles(outer).rows)
        let text = LayoutHoles(outer).textReport(cacheLineSize: nil, expansion: expansion(depth: 2))
        let offset = try #require(MemoryLayout<ExpandOuter>.offset(of: \.inner.deep.value))
        let padded = String(repeating: " ", count: 6 - String(offset).count) + String(offset)
        #expect(text.contains("\n  \(padded)     8      value: Swift.Int64\n"), "\(text)")
        // The waste line still counts the outer type's own bytes only.
        #expect(text.contains("wasted \(LayoutHoles(outer).wastedBytes) of \(MemoryLayout<ExpandOuter>.stride) bytes"))
    }

    @Test func aNestedTypeWhoseSizeDisagreesIsNotOpened() {
        var wrong = inner
        wrong.name = String(reflecting: ExpandInner.self)
        wrong.size = MemoryLayout<ExpandInner>.size + 8
        let rows = LayoutHoles(outer).expandedRows(LayoutExpansion(depth: 3, types: [wrong])).rows
        #expect(rows.allSatisfy { $0.depth == 0 })
    }
}

private enum TaggedShape {
    case circle(Int64)
    case square(Bool)
    case none
}

@Suite struct EnumLayoutSummaryTests {
    /// The layout a computed reading gives for TaggedShape, its numbers from MemoryLayout.
    var shape: TypeLayout {
        var layout = Measured.enumLayout(
            TaggedShape.self, name: "Demo.TaggedShape",
            cases: [("circle", Int64.self), ("square", Bool.self), ("none", nil)])
        layout.enumStrategy = .multiPayload
        layout.enumTagBytes = MemoryLayout<TaggedShape>.size - MemoryLayout<Int64>.size
        layout.cases[0].payloadSize = MemoryLayout<Int64>.size
        layout.cases[1].payloadSize = MemoryLayout<Bool>.size
        return layout
    }

    @Test func tagBytesAreWhereTheLiveValuesKeepTheCase() throws {
        let summary = LayoutHoles(shape).enumLayout
        let tag = try #require(summary?.tagBytes)
        let largest = MemoryLayout<Int64>.size
        // Live values: the payload fills bytes 0..<largest, and the bytes after it tell the cases apart.
        let circle = withUnsafeBytes(of: TaggedShape.circle(1)) { Array($0) }
        let square = withUnsafeBytes(of: TaggedShape.square(true)) { Array($0) }
        #expect(tag > 0)
        #expect(Array(circle[..<largest]) == withUnsafeBytes(of: Int64(1)) { Array($0) }, "the payload starts at offset 0")
        #expect(square[0] == 1)
        #expect(circle[largest..<(largest + tag)] != square[largest..<(largest + tag)], "the tag tells circle from square")
    }

    @Test func totalLeavesEnumsOut() {
        let text = LayoutHoles(shape).textReport(cacheLineSize: nil)
        #expect(text.contains("  case circle(Swift.Int64)  payload \(MemoryLayout<Int64>.size)\n"), "\(text)")
        #expect(!text.contains("note: holes are shown"))
        // The total does not count an enum as a type without waste.
        let padded = LayoutHoles(
            Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)]))
        #expect(
            LayoutHoles.summaryLine([padded, LayoutHoles(shape)]).contains(" in 1 of 1 type (1 enum or other type not analysed for holes)"))
    }
}
