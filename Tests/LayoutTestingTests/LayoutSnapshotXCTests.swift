import LayoutTesting
import TypeLayout
import XCTest

/// The same assertion under XCTest, against the snapshot checked in under __Snapshots__.
final class LayoutSnapshotXCTests: XCTestCase {
    func testAssertionPassesOnTheRecordedSnapshot() {
        assertLayout(MeasuredPoint.v1)
    }

    func testMismatchMessageUnderXCTestIsTheDiff() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("typeinfo-layout-xctest-\(UUID().uuidString).layout.json")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = LayoutSnapshotVerifier(snapshotURL: url, record: true).verify([MeasuredPoint.v1])
        let message = try XCTUnwrap(LayoutSnapshotVerifier(snapshotURL: url, record: false).verify([MeasuredPoint.v2]).failureMessage)
        XCTAssertTrue(message.contains("BREAKING    stride \(MemoryLayout<PointV1>.stride) -> \(MemoryLayout<PointV2>.stride)"), message)
    }
}
