import Foundation
import LayoutTesting
import Testing
import TypeLayout

/// Two builds of one type; every number in the layouts comes from MemoryLayout.
struct PointV1 { var x: Double; var y: Double }
struct PointV2 { var x: Double; var y: Float; var z: Double }

enum MeasuredPoint {
    static func size(_ type: Any.Type) -> Int {
        func measure<V>(_: V.Type) -> Int { MemoryLayout<V>.size }
        return _openExistential(type, do: measure)
    }

    static func layout<T>(_ type: T.Type, _ fields: [(String, PartialKeyPath<T>)]) -> TypeLayout {
        TypeLayout(
            name: "Demo.Point", kind: .struct,
            size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment, stride: MemoryLayout<T>.stride,
            fields: fields.map { name, keyPath in
                let valueType = Swift.type(of: keyPath).valueType
                return FieldLayout(
                    name: name, type: String(reflecting: valueType),
                    offset: MemoryLayout<T>.offset(of: keyPath), size: size(valueType))
            }
        )
    }

    static let v1 = layout(PointV1.self, [("x", \PointV1.x), ("y", \PointV1.y)])
    static let v2 = layout(PointV2.self, [("x", \PointV2.x), ("y", \PointV2.y), ("z", \PointV2.z)])
}

@Suite struct LayoutSnapshotAssertionTests {
    /// A fresh directory per test, so tests can run in parallel.
    func temporarySnapshot() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("typeinfo-layout-tests-\(UUID().uuidString)", isDirectory: true)
            .appendingPathComponent("Demo.Point.layout.json")
    }

    @Test func recordWritesTheSnapshotAndMatchThenPasses() throws {
        let url = temporarySnapshot()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(LayoutSnapshotVerifier(snapshotURL: url, record: true).verify([MeasuredPoint.v1]) == .recorded)
        #expect(try Data(contentsOf: url) == LayoutSnapshot(types: [MeasuredPoint.v1]).jsonData())
        #expect(LayoutSnapshotVerifier(snapshotURL: url, record: false).verify([MeasuredPoint.v1]) == .matched)
    }

    @Test func mismatchFailsWithTheReadableDiff() throws {
        let url = temporarySnapshot()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        _ = LayoutSnapshotVerifier(snapshotURL: url, record: true).verify([MeasuredPoint.v1])
        let outcome = LayoutSnapshotVerifier(snapshotURL: url, record: false).verify([MeasuredPoint.v2])
        let message = try #require(outcome.failureMessage)
        #expect(message.hasPrefix("Layout of Demo.Point does not match the snapshot \(url.path):"))
        #expect(message.contains("  BREAKING    size \(MemoryLayout<PointV1>.size) -> \(MemoryLayout<PointV2>.size)\n"))
        #expect(message.contains("field 'y' retyped: Swift.Double -> Swift.Float"))
        #expect(message.contains("field 'z' added: Swift.Double (offset \(MemoryLayout<PointV2>.offset(of: \.z) ?? -1)"))
        #expect(message.contains("re-record with TYPEINFO_RECORD_SNAPSHOTS=1"))
        guard case .mismatched(_, let diff) = outcome else {
            Issue.record("expected a mismatch, got \(outcome)")
            return
        }
        #expect(message.contains(diff.textReport()), "the same report the CLI prints")
        // The recorded file is left alone on a mismatch.
        #expect(try LayoutSnapshot(jsonData: Data(contentsOf: url)) == LayoutSnapshot(types: [MeasuredPoint.v1]))
    }

    @Test func aMissingSnapshotIsRecordedAndFailsOnce() throws {
        let url = temporarySnapshot()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let never = LayoutSnapshotVerifier(snapshotURL: url, recordMode: .never).verify([MeasuredPoint.v1])
        #expect(never.failureMessage?.contains("No layout snapshot at \(url.path)") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let first = LayoutSnapshotVerifier(snapshotURL: url, recordMode: .missing).verify([MeasuredPoint.v1])
        #expect(first.failureMessage?.contains("No layout snapshot was found, so one was recorded at \(url.path)") == true)
        #expect(LayoutSnapshotVerifier(snapshotURL: url, recordMode: .missing).verify([MeasuredPoint.v1]) == .matched)
    }

    @Test func aCorruptSnapshotFailsWithAClearMessage() throws {
        let url = temporarySnapshot()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"format\": \"typeinfo-layout-snapshot\", \"version\": 1, \"types\": 3}".utf8).write(to: url)
        let message = LayoutSnapshotVerifier(snapshotURL: url, record: false).verify([MeasuredPoint.v1]).failureMessage
        #expect(message?.contains("Cannot read the layout snapshot \(url.path)") == true)
        #expect(message?.contains("$.types") == true)
    }

    @Test func snapshotsLiveBesideTheTestFile() {
        let verifier = LayoutSnapshotVerifier(
            named: "Demo.Box<Swift.Int>", besideTestFile: "/src/Tests/FooTests/BoxTests.swift", record: false)
        #expect(verifier.snapshotURL.path == "/src/Tests/FooTests/__Snapshots__/BoxTests/Demo.Box_Swift.Int_.layout.json")
    }

    // The public assertion, against the snapshot checked in under __Snapshots__.
    @Test func assertionPassesOnTheRecordedSnapshot() {
        assertLayout(MeasuredPoint.v1)
    }

    @Test func assertionReportsAMismatchAsAnIssue() {
        withKnownIssue {
            assertLayout(MeasuredPoint.v2, matchesSnapshot: "Demo.Point", record: false)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("BREAKING    size \(MemoryLayout<PointV1>.size) -> \(MemoryLayout<PointV2>.size)")
            }
        }
    }
}

/// A type checked through the in-process reader (ClassInfo), as users of the library do.
struct Packet {
    var kind: UInt8
    var length: UInt32
    var flags: UInt16
}

/// The same fields in the order the reorder suggestion names, to measure what it promises.
struct PacketReordered {
    var length: UInt32
    var flags: UInt16
    var kind: UInt8
}

final class Node {
    var flag = false
    var count = 0
    var other = false
}

final class NodeReordered {
    var count = 0
    var flag = false
    var other = false
}

/// Byte offsets of stored properties inside a live instance: the address of the storage minus the object's.
func instanceOffset<Object: AnyObject, Value>(_ object: Object, _ keyPath: ReferenceWritableKeyPath<Object, Value>) -> Int {
    let base = Int(bitPattern: Unmanaged.passUnretained(object).toOpaque())
    return withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { Int(bitPattern: $0) - base }
}

@Suite struct InProcessLayoutTests {
    @Test func assertionReadsTheTypeThroughClassInfo() {
        assertLayout(of: Packet.self)
    }

    @Test func theCheckedInSnapshotAgreesWithMemoryLayout() throws {
        // The assertion above passes only if ClassInfo's layout equals this file.
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("__Snapshots__/LayoutSnapshotAssertionTests/\(String(reflecting: Packet.self)).layout.json")
        let snapshot = try LayoutSnapshot(jsonData: Data(contentsOf: url))
        let packet = try #require(snapshot.types.first)
        #expect(packet.size == MemoryLayout<Packet>.size && packet.stride == MemoryLayout<Packet>.stride)
        #expect(packet.fields.map(\.offset) == [\Packet.kind, \Packet.length, \Packet.flags].map { MemoryLayout<Packet>.offset(of: $0) })
    }

    @Test func anotherTypeAgainstTheSnapshotFailsWithTheDiff() {
        // Types are matched by name, so a renamed type is a removal and an addition.
        withKnownIssue {
            assertLayout(of: PacketReordered.self, matchesSnapshot: String(reflecting: Packet.self), record: false)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("Removed types:\n  BREAKING    struct \(String(reflecting: Packet.self))")
                    && $0.rawValue.contains("Added types:\n  compatible  struct \(String(reflecting: PacketReordered.self))")
            }
        }
    }

    @Test func holesOfAStructComeWithAMeasurableSuggestion() throws {
        let holes = LayoutHoles(of: Packet.self)
        #expect(
            holes.wastedBytes == MemoryLayout<Packet>.stride
                - MemoryLayout<UInt8>.size - MemoryLayout<UInt32>.size - MemoryLayout<UInt16>.size)
        let suggestion = try #require(holes.reorder)
        #expect(suggestion.order == ["length", "flags", "kind"])
        #expect(suggestion.suggestedSize == MemoryLayout<PacketReordered>.size)
        #expect(suggestion.suggestedStride == MemoryLayout<PacketReordered>.stride)
    }

    @Test func holesOfAClassMatchALiveInstance() throws {
        let node = Node()
        let holes = LayoutHoles(of: Node.self)
        let hole = try #require(holes.rows.first { $0.kind == .hole })
        #expect(hole.offset == instanceOffset(node, \.flag) + MemoryLayout<Bool>.size)
        #expect(hole.offset + (hole.size ?? 0) == instanceOffset(node, \.count))
        #expect(holes.rows.first?.kind == .header)
        #expect(holes.rows.first?.size == instanceOffset(node, \.flag))
        let suggestion = try #require(holes.reorder)
        #expect(suggestion.order == ["count", "flag", "other"])
        let reordered = NodeReordered()
        #expect(suggestion.suggestedSize == instanceOffset(reordered, \.other) + MemoryLayout<Bool>.size)
    }
}
