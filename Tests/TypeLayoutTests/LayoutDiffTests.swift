import Foundation
import Testing
import TypeLayout

// Two "builds" of the same types: every size and offset below comes from MemoryLayout.
private enum V1 {
    struct Point { var x: Double; var y: Double }
    struct Gap { var flag: Int8; var count: Int64 }
    struct Widen { var a: Int32; var b: Int32 }
    struct Pair { var first: Int; var second: Int }
    struct Shrink { var a: Int; var b: Int; var c: Int }
    enum Mode { case off, on }
    enum Tagged { case a, b }
}

private enum V2 {
    struct Point { var x: Double; var yy: Double; var z: Double }
    struct Gap { var flag: Int8; var extra: Int8; var count: Int64 }
    struct Widen { var a: Int64; var b: Int32 }
    struct Pair { var second: Int; var first: Int }
    struct Shrink { var a: Int; var c: Int }
    enum Mode { case off, on, auto }
    enum Tagged { case c, a, b }
}

@Suite struct LayoutDiffTests {
    @Test func identicalLayoutsHaveNoChanges() {
        let layouts = [
            Measured.structLayout(V1.Point.self, name: "Demo.Point", [("x", \V1.Point.x), ("y", \V1.Point.y)]),
            Measured.structLayout(V1.Gap.self, name: "Demo.Gap", [("flag", \V1.Gap.flag), ("count", \V1.Gap.count)]),
        ]
        let diff = LayoutDiff(old: layouts, new: Array(layouts.reversed()))
        #expect(diff.isEmpty)
        #expect(diff.typesCompared == 2)
        #expect(diff.textReport() == "No layout changes in 2 types.\n")
    }

    @Test func addedFieldAndRenameAreFoundWithSizesFromTheCompiler() throws {
        let old = Measured.structLayout(V1.Point.self, name: "Demo.Point", [("x", \V1.Point.x), ("y", \V1.Point.y)])
        let new = Measured.structLayout(
            V2.Point.self, name: "Demo.Point", [("x", \V2.Point.x), ("yy", \V2.Point.yy), ("z", \V2.Point.z)]
        )
        let diff = LayoutDiff(old: [old], new: [new])

        let size = try #require(diff.changes(.sizeChanged).first)
        #expect(size.from == .int(MemoryLayout<V1.Point>.size))
        #expect(size.to == .int(MemoryLayout<V2.Point>.size))
        #expect(size.severity == .breaking)
        #expect(diff.changes(.strideChanged).first?.to == .int(MemoryLayout<V2.Point>.stride))

        let rename = try #require(diff.changes(.fieldRenamed).first)
        #expect(rename.member == "y" && rename.to == .text("yy"))
        #expect(rename.severity == .compatible)

        let added = try #require(diff.changes(.fieldAdded).first)
        #expect(added.member == "z" && added.to == .text("Swift.Double"))
        #expect(added.severity == .breaking, "z lies past the old end")
        #expect(diff.changes(.fieldMoved).isEmpty)
        #expect(diff.changes(.fieldRemoved).isEmpty)
    }

    @Test func fieldAddedIntoAHoleIsCompatible() throws {
        let old = Measured.structLayout(V1.Gap.self, name: "Demo.Gap", [("flag", \V1.Gap.flag), ("count", \V1.Gap.count)])
        let new = Measured.structLayout(
            V2.Gap.self, name: "Demo.Gap", [("flag", \V2.Gap.flag), ("extra", \V2.Gap.extra), ("count", \V2.Gap.count)]
        )
        // The oracle: the compiler put `extra` into the hole and moved nothing.
        #expect(MemoryLayout<V1.Gap>.stride == MemoryLayout<V2.Gap>.stride)
        #expect(MemoryLayout<V1.Gap>.offset(of: \.count) == MemoryLayout<V2.Gap>.offset(of: \.count))
        let diff = LayoutDiff(old: [old], new: [new])
        #expect(diff.changes.map(\.kind) == [.fieldAdded])
        #expect(diff.changes.first?.severity == .compatible)
        #expect(!diff.hasBreakingChanges)
    }

    @Test func widenedFieldIsRetypedAndTheNextOneMoves() throws {
        let old = Measured.structLayout(V1.Widen.self, name: "Demo.Widen", [("a", \V1.Widen.a), ("b", \V1.Widen.b)])
        let new = Measured.structLayout(V2.Widen.self, name: "Demo.Widen", [("a", \V2.Widen.a), ("b", \V2.Widen.b)])
        let diff = LayoutDiff(old: [old], new: [new])
        let retyped = try #require(diff.changes(.fieldRetyped).first)
        #expect(retyped.member == "a" && retyped.from == .text("Swift.Int32") && retyped.to == .text("Swift.Int64"))
        let moved = try #require(diff.changes(.fieldMoved).first)
        #expect(moved.member == "b")
        #expect(moved.from == LayoutValue(MemoryLayout<V1.Widen>.offset(of: \.b)))
        #expect(moved.to == LayoutValue(MemoryLayout<V2.Widen>.offset(of: \.b)))
        #expect(diff.changes.allSatisfy { $0.severity == .breaking })
    }

    @Test func swappedFieldsAreMovedAndReordered() throws {
        let old = Measured.structLayout(V1.Pair.self, name: "Demo.Pair", [("first", \V1.Pair.first), ("second", \V1.Pair.second)])
        let new = Measured.structLayout(V2.Pair.self, name: "Demo.Pair", [("second", \V2.Pair.second), ("first", \V2.Pair.first)])
        let diff = LayoutDiff(old: [old], new: [new])
        #expect(diff.changes(.fieldMoved).map(\.member) == ["first", "second"])
        let reordered = try #require(diff.changes(.fieldsReordered).first)
        #expect(reordered.from == .names(["first", "second"]) && reordered.to == .names(["second", "first"]))
        #expect(reordered.severity == .breaking)
    }

    @Test func removedFieldIsBreaking() throws {
        let old = Measured.structLayout(
            V1.Shrink.self, name: "Demo.Shrink", [("a", \V1.Shrink.a), ("b", \V1.Shrink.b), ("c", \V1.Shrink.c)])
        let new = Measured.structLayout(V2.Shrink.self, name: "Demo.Shrink", [("a", \V2.Shrink.a), ("c", \V2.Shrink.c)])
        let diff = LayoutDiff(old: [old], new: [new])
        #expect(diff.changes(.fieldRemoved).map(\.member) == ["b"])
        #expect(diff.changes(.fieldMoved).map(\.member) == ["c"])
        #expect(diff.changes(.fieldsReordered).isEmpty, "c still follows a")
        #expect(diff.changes(.sizeChanged).first?.to == .int(MemoryLayout<V2.Shrink>.size))
    }

    @Test func typesAddedAndRemovedAreClassified() {
        let point = Measured.structLayout(V1.Point.self, name: "Demo.Point", [("x", \V1.Point.x), ("y", \V1.Point.y)])
        let gap = Measured.structLayout(V1.Gap.self, name: "Demo.Gap", [("flag", \V1.Gap.flag), ("count", \V1.Gap.count)])
        let diff = LayoutDiff(old: [point], new: [gap])
        #expect(diff.changes.map(\.kind) == [.typeAdded, .typeRemoved])
        #expect(diff.changes(.typeAdded).first?.severity == .compatible)
        #expect(diff.changes(.typeRemoved).first?.severity == .breaking)
        let summary = diff.summary
        #expect(summary.typesAdded == 1 && summary.typesRemoved == 1 && summary.typesChanged == 0)
    }

    @Test func enumCaseAppendedIsCompatibleButInsertedIsBreaking() throws {
        let mode1 = Measured.enumLayout(V1.Mode.self, name: "Demo.Mode", cases: [("off", nil), ("on", nil)])
        let mode2 = Measured.enumLayout(V2.Mode.self, name: "Demo.Mode", cases: [("off", nil), ("on", nil), ("auto", nil)])
        let appended = LayoutDiff(old: [mode1], new: [mode2])
        #expect(appended.changes.map(\.kind) == [.caseAdded])
        #expect(appended.changes.first?.severity == .compatible)

        let tagged1 = Measured.enumLayout(V1.Tagged.self, name: "Demo.Tagged", cases: [("a", nil), ("b", nil)])
        let tagged2 = Measured.enumLayout(V2.Tagged.self, name: "Demo.Tagged", cases: [("c", nil), ("a", nil), ("b", nil)])
        let inserted = LayoutDiff(old: [tagged1], new: [tagged2])
        let added = try #require(inserted.changes(.caseAdded).first)
        #expect(added.severity == .breaking)
        #expect(added.detail?.contains("renumbers") == true)

        let removed = LayoutDiff(old: [mode2], new: [mode1])
        #expect(removed.changes.map(\.kind) == [.caseRemoved])
        #expect(removed.hasBreakingChanges)
    }

    @Test func casePayloadAndOrderChangesAreBreaking() {
        let old = Measured.enumLayout(V1.Tagged.self, name: "Demo.E", cases: [("a", Int.self), ("b", nil)])
        let payload = Measured.enumLayout(V1.Tagged.self, name: "Demo.E", cases: [("a", String.self), ("b", nil)])
        #expect(LayoutDiff(old: [old], new: [payload]).changes.map(\.kind) == [.casePayloadChanged])
        let swapped = Measured.enumLayout(V1.Tagged.self, name: "Demo.E", cases: [("b", nil), ("a", Int.self)])
        #expect(LayoutDiff(old: [old], new: [swapped]).changes.map(\.kind) == [.casesReordered])
    }

    @Test func superclassAndKindChangesAreBreaking() {
        let base = TypeLayout(name: "Demo.Node", kind: .class, size: MemoryLayout<AnyObject>.size, superclass: "Demo.Base")
        var other = base
        other.superclass = "Demo.OtherBase"
        let diff = LayoutDiff(old: [base], new: [other])
        #expect(diff.changes.map(\.kind) == [.superclassChanged])
        #expect(diff.changes.first?.from == .text("Demo.Base") && diff.changes.first?.to == .text("Demo.OtherBase"))

        var asStruct = base
        asStruct.kind = .struct
        #expect(LayoutDiff(old: [base], new: [asStruct]).changes.first?.kind == .kindChanged)
    }

    @Test func factsBecomingKnownAreCompatibleAndBecomingUnknownAreBreaking() {
        let known = Measured.structLayout(V1.Point.self, name: "Demo.Point", [("x", \V1.Point.x), ("y", \V1.Point.y)])
        var unknown = known
        unknown.size = nil
        unknown.fields[1].offset = nil
        let learned = LayoutDiff(old: [unknown], new: [known])
        #expect(!learned.hasBreakingChanges)
        #expect(learned.changes.map(\.kind) == [.sizeChanged, .fieldMoved])
        let forgotten = LayoutDiff(old: [known], new: [unknown])
        #expect(forgotten.changes.allSatisfy { $0.severity == .breaking })
        #expect(forgotten.changes.first?.detail?.contains("cannot be checked") == true)
    }

    @Test func nonLayoutFactsAreIgnored() {
        let plain = Measured.structLayout(V1.Point.self, name: "Demo.Point", [("x", \V1.Point.x), ("y", \V1.Point.y)])
        var decorated = plain
        decorated.mangledName = "4Demo5PointV"
        decorated.module = "Demo"
        decorated.conformances = ["Swift.Equatable"]
        decorated.source = .metadata
        decorated.fields[0].isVar = false
        decorated.fields[0].mangledType = "Sd"
        #expect(LayoutDiff(old: [plain], new: [decorated]).isEmpty)
    }

    @Test func unionMemberWithinTheOldSizeIsCompatible() {
        let int64 = Measured.sizeAndAlignment(Int64.self)
        let int32 = Measured.sizeAndAlignment(Int32.self)
        let old = TypeLayout(
            name: "c.Value", kind: .union, size: int64.size, alignment: int64.alignment, stride: int64.size,
            fields: [FieldLayout(name: "wide", type: "int64_t", offset: 0, size: int64.size)])
        var new = old
        new.fields.append(FieldLayout(name: "narrow", type: "int32_t", offset: 0, size: int32.size))
        let diff = LayoutDiff(old: [old], new: [new])
        #expect(diff.changes.map(\.kind) == [.fieldAdded])
        #expect(diff.changes.first?.severity == .compatible)
    }

    @Test func textReportGroupsByTypeAndEndsWithTheSummary() {
        let old = [
            Measured.structLayout(V1.Pair.self, name: "Demo.Pair", [("first", \V1.Pair.first), ("second", \V1.Pair.second)]),
            Measured.structLayout(V1.Gap.self, name: "Demo.Gap", [("flag", \V1.Gap.flag), ("count", \V1.Gap.count)]),
        ]
        let new = [
            Measured.structLayout(V2.Pair.self, name: "Demo.Pair", [("second", \V2.Pair.second), ("first", \V2.Pair.first)]),
            Measured.structLayout(V1.Point.self, name: "Demo.Point", [("x", \V1.Point.x), ("y", \V1.Point.y)]),
        ]
        let diff = LayoutDiff(old: old, new: new)
        let report = diff.textReport(title: "Comparing old -> new")
        let firstOffset = MemoryLayout<V1.Pair>.offset(of: \.first) ?? -1
        let secondOffset = MemoryLayout<V2.Pair>.offset(of: \.first) ?? -1
        #expect(report.hasPrefix("Comparing old -> new\n\nstruct Demo.Pair\n"))
        #expect(report.contains("  BREAKING    field 'first' moved: offset \(firstOffset) -> \(secondOffset)\n"))
        #expect(report.contains("  BREAKING    fields reordered: first, second -> second, first\n"))
        #expect(report.contains("Removed types:\n  BREAKING    struct Demo.Gap"))
        #expect(report.contains("Added types:\n  compatible  struct Demo.Point (size \(MemoryLayout<V1.Point>.size), 2 fields)"))
        #expect(report.hasSuffix("\(diff.summaryLine)\n"))
        #expect(diff.summaryLine.hasPrefix("\(diff.summary.breaking) breaking and 1 compatible changes in 3 of 3 types"))
    }

    @Test func jsonReportIsVersionedAndRoundTrips() throws {
        let old = Measured.structLayout(V1.Widen.self, name: "Demo.Widen", [("a", \V1.Widen.a), ("b", \V1.Widen.b)])
        let new = Measured.structLayout(V2.Widen.self, name: "Demo.Widen", [("a", \V2.Widen.a), ("b", \V2.Widen.b)])
        let diff = LayoutDiff(old: [old], new: [new])
        let data = try diff.jsonData(old: "old.json", new: "new")
        let report = try JSONDecoder().decode(LayoutDiffReport.self, from: data)
        #expect(report == LayoutDiffReport(diff, old: "old.json", new: "new"))
        #expect(report.format == "typeinfo-layout-diff" && report.version == LayoutDiffReport.currentVersion)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let changes = try #require(object["changes"] as? [[String: Any]])
        let moved = try #require(changes.first { $0["change"] as? String == "fieldMoved" })
        #expect(moved["from"] as? Int == MemoryLayout<V1.Widen>.offset(of: \.b))
        #expect(moved["severity"] as? String == "breaking")
        #expect(moved.keys.contains("detail"), "absent values are written as null")
    }

    /// docs/layout-checks.md's classification table names every change kind the engine emits.
    @Test func everyChangeKindIsDocumented() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/layout-checks.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        for kind in LayoutChangeKind.allCases {
            #expect(text.contains("`\(kind.rawValue)`"), "\(kind.rawValue) is not in docs/layout-checks.md")
        }
    }
}
