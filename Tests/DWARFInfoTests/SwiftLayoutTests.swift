import Foundation
import Testing
import TypeLayout
@testable import DWARFInfo

/// Swift layouts from `-gdwarf-types` DWARF against the fixture program's own runtime truth.
@Suite struct SwiftLayoutTests {
    struct Fixture {
        var truth: [TypeLayout]
        var dwarf: [TypeLayout]

        func dwarfLayout(named name: String) -> TypeLayout? { dwarf.first { $0.name == name } }
        func truthLayout(named name: String) -> TypeLayout? { truth.first { $0.name == name } }
    }

    static let fixture: Result<Fixture, any Error> = Result {
        let built = try FixtureToolchain.swiftFixture.get()
        return Fixture(
            truth: try SwiftRuntimeTruth.layouts(from: built.output),
            dwarf: try DWARFReader(path: built.executable).typeLayouts()
        )
    }

    /// The members a class declares itself: the runtime lists the superclass's first.
    static func ownFields(of layout: TypeLayout, in truth: [TypeLayout]) -> [FieldLayout] {
        guard let superclass = layout.superclass, let parent = truth.first(where: { $0.name == superclass }) else {
            return layout.fields
        }
        return Array(layout.fields.dropFirst(parent.fields.count))
    }

    @Test("DWARF describes every fixture type with its members, kind, module and superclass")
    func typesAreDescribed() throws {
        let fixture = try Self.fixture.get()
        #expect(fixture.truth.count >= 10)
        for truth in fixture.truth {
            let dwarf = try #require(fixture.dwarfLayout(named: truth.name), "\(truth.name) not in DWARF")
            #expect(dwarf.kind == truth.kind, "\(truth.name)")
            #expect(dwarf.module == "SwiftFixture")
            #expect(dwarf.source == .dwarf)
            #expect(dwarf.superclass == truth.superclass, "\(truth.name)")
            #expect(dwarf.mangledName.map { SwiftDemangler.demangle(symbol: $0) } == truth.name)
            if truth.kind != .enum {
                #expect(dwarf.fields.map(\.name) == Self.ownFields(of: truth, in: fixture.truth).map(\.name), "\(truth.name)")
                #expect(dwarf.fields.allSatisfy { $0.offset != nil && $0.size != nil }, "\(truth.name)")
            }
        }
        let shape = try #require(fixture.dwarfLayout(named: "SwiftFixture.Shape"))
        #expect(shape.cases.map(\.name) == ["circle", "square", "empty"])
        #expect(shape.cases.map(\.payloadType) == [String(reflecting: Double.self), String(reflecting: Int.self), nil])
        let existential = try #require(fixture.dwarfLayout(named: String(reflecting: (any CustomStringConvertible).self)))
        #expect(existential.kind == .existential)
        #expect(existential.size == MemoryLayout<any CustomStringConvertible>.size)
        let point = try #require(fixture.dwarfLayout(named: "SwiftFixture.Point"))
        #expect(point.fields.map(\.type) == [Double.self, Bool.self, Int32.self].map { String(reflecting: $0) })
    }

    @Test("the witness report lists exactly the facts on which DWARF and the runtime differ")
    func reportIsExact() throws {
        let fixture = try Self.fixture.get()
        let report = LayoutWitnessComparison.compare(metadata: fixture.truth, dwarf: fixture.dwarf)
        #expect(report.comparedTypes == fixture.truth.map(\.name))
        #expect(report.typesWithoutDWARF.isEmpty)

        // The expected report, computed from the two witnesses directly.
        var expected: [LayoutDisagreement] = []
        for truth in fixture.truth {
            let dwarf = try #require(fixture.dwarfLayout(named: truth.name))
            if let size = truth.size, let dwarfSize = dwarf.size, size != dwarfSize {
                expected.append(
                    LayoutDisagreement(typeName: truth.name, fact: .size(metadata: size, dwarf: dwarfSize), reason: .synthesizedSize))
            }
            guard truth.kind != .enum else { continue }
            // Walk the class chain so that inherited fields are compared with their declaring class's DWARF.
            var declaring: TypeLayout? = truth
            while let current = declaring {
                let own = Self.ownFields(of: current, in: fixture.truth)
                let dwarfOwn = try #require(fixture.dwarfLayout(named: current.name))
                for field in own {
                    let dwarfField = try #require(dwarfOwn.fields.first { $0.name == field.name })
                    let (metadataOffset, dwarfOffset) = (try #require(field.offset), try #require(dwarfField.offset))
                    guard metadataOffset != dwarfOffset else { continue }
                    // A class's header, for DWARF, is everything before its first own field.
                    let header = own.first?.offset
                    let reason: LayoutDisagreement.Reason =
                        truth.kind == .class && metadataOffset - dwarfOffset == header
                        ? .classOffsetsOmitObjectHeader : .synthesizedMemberOffsets
                    expected.append(
                        LayoutDisagreement(
                            typeName: truth.name, fact: .fieldOffset(field: field.name, metadata: metadataOffset, dwarf: dwarfOffset),
                            reason: reason
                        ))
                }
                declaring = current.superclass.flatMap { fixture.truthLayout(named: $0) }
            }
        }
        if ProcessInfo.processInfo.environment["DWARF_PRINT_REPORT"] != nil {
            print(report.disagreements.map(\.description).joined(separator: "\n"))
        }
        #expect(Set(report.disagreements) == Set(expected), "\(report.disagreements.map(\.description).joined(separator: "\n"))")
        #expect(report.disagreements.count == expected.count)
        #expect(report.disagreements.allSatisfy { $0.usedSource == .metadata })
    }

    @Test("class member offsets in DWARF omit the object header (two words) and superclass storage")
    func classOffsetsOmitHeader() throws {
        let fixture = try Self.fixture.get()
        let report = LayoutWitnessComparison.compare(metadata: fixture.truth, dwarf: fixture.dwarf)
        let node = try #require(fixture.truthLayout(named: "SwiftFixture.Node"))
        let headerSize = 2 * MemoryLayout<UnsafeRawPointer>.size
        // The first field of a root class sits right after the header at run time, at 0 in DWARF.
        let nodeOffsets = report.disagreements.filter { $0.typeName == node.name }.compactMap { disagreement -> Int? in
            if case .fieldOffset(_, let metadata, let dwarf) = disagreement.fact { return metadata - dwarf }
            return nil
        }
        #expect(nodeOffsets.first == headerSize)
        #expect(report.disagreements.contains { $0.typeName == node.name && $0.reason == .classOffsetsOmitObjectHeader })
        // Derived's own fields are shifted by the header and Base's storage.
        let derived = try #require(fixture.truthLayout(named: "SwiftFixture.Derived"))
        let firstOwn = try #require(Self.ownFields(of: derived, in: fixture.truth).first?.offset)
        #expect(
            report.disagreements.contains {
                $0.typeName == derived.name && $0.reason == .classOffsetsOmitObjectHeader
                    && $0.fact == .fieldOffset(field: "b", metadata: firstOwn, dwarf: 0)
            })
        #expect(firstOwn > headerSize)
    }

    @Test("plain -g describes Swift types without members: they are counted, not reported as missing")
    func plainDebugInfo() throws {
        let fixture = try Self.fixture.get()
        let executable = try FixtureToolchain.swiftFixturePlainDebug.get()
        let dwarf = try DWARFReader(path: executable).typeLayouts()
        let report = LayoutWitnessComparison.compare(metadata: fixture.truth, dwarf: dwarf)
        // Every compared struct and class with stored properties is one DWARF lists no member of.
        let withFields = fixture.truth.filter { $0.kind != .enum && !$0.fields.isEmpty && report.comparedTypes.contains($0.name) }
        #expect(!withFields.isEmpty)
        #expect(withFields.allSatisfy { report.typesDescribedWithoutMembers.contains($0.name) }, "\(report)")
        #expect(!report.disagreements.contains { $0.reason == .memberNotDescribed }, "\(report)")
        // What plain -g does state (sizes, kinds) is still compared: the report is exactly the
        // differences between the two witnesses' stated values.
        var expected: [LayoutDisagreement] = []
        for truth in fixture.truth where report.comparedTypes.contains(truth.name) {
            let layout = try #require(dwarf.first { $0.name == truth.name })
            if let size = truth.size, let dwarfSize = layout.size, size != dwarfSize {
                expected.append(
                    LayoutDisagreement(typeName: truth.name, fact: .size(metadata: size, dwarf: dwarfSize), reason: .synthesizedSize))
            }
        }
        #expect(report.disagreements == expected, "\(report.disagreements.map(\.description))")
    }
}

extension SwiftLayoutTests {
    @Test("the language filter keeps Swift types apart from C types")
    func languageFilter() throws {
        let built = try FixtureToolchain.swiftFixture.get()
        let swift = try DWARFReader(path: built.executable).typeLayouts(languages: .swift)
        let all = try DWARFReader(path: built.executable).typeLayouts()
        #expect(swift.contains { $0.name == "SwiftFixture.Point" })
        #expect(swift.allSatisfy { $0.module != nil })
        #expect(Set(all).isSuperset(of: Set(swift)))
        let split = try DWARFReader(path: built.executable).typeLayoutsByLanguage()
        #expect(split.swift == swift)
        #expect(Set(split.cFamily).union(split.swift) == Set(all))
        // Asking for some languages reads only their units past the root, with the same result.
        #expect(try DWARFReader(path: built.executable).typeLayouts(languages: .cFamily) == split.cFamily)
        let reader = try DWARFReader(path: built.executable)
        #expect(try reader.debugInfoTree(languages: .cFamily).entries.count < reader.debugInfoTree().entries.count)
    }
}
