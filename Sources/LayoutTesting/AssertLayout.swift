import Testing
import TypeLayout
import XCTest

/// Asserts that layouts match a snapshot file kept beside the test, in XCTest or Swift Testing.
///
/// The snapshot is `__Snapshots__/<test file name>/<name>.layout.json` next to the test file.
/// When it is missing it is recorded and the assertion fails once; with
/// `TYPEINFO_RECORD_SNAPSHOTS=1` (or `record: true`) every snapshot is rewritten and the
/// assertion passes. A mismatch fails with the same readable diff `typeinfo check` prints.
///
/// - Parameters:
///   - layouts: the current layouts (one type's, or several).
///   - name: the snapshot's name; by default the first layout's type name.
///   - record: force record mode on or off; `nil` reads `TYPEINFO_RECORD_SNAPSHOTS`.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`, which also decides where the snapshot lives.
///   - line: the caller's line.
///   - column: the caller's column.
public func assertLayout(
    _ layouts: [TypeLayout],
    matchesSnapshot name: String? = nil,
    record: Bool? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let snapshotName = name ?? layouts.first?.name ?? "layout"
    let verifier = LayoutSnapshotVerifier(named: snapshotName, besideTestFile: "\(filePath)", record: record)
    if let message = verifier.verify(layouts).failureMessage {
        reportLayoutFailure(message, fileID: fileID, filePath: filePath, line: line, column: column)
    }
}

/// Asserts that one layout matches a snapshot file kept beside the test, as the overload
/// taking an array does.
///
/// - Parameters:
///   - layout: the current layout.
///   - name: the snapshot's name; by default the type name.
///   - record: force record mode on or off; `nil` reads `TYPEINFO_RECORD_SNAPSHOTS`.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`, which also decides where the snapshot lives.
///   - line: the caller's line.
///   - column: the caller's column.
public func assertLayout(
    _ layout: TypeLayout,
    matchesSnapshot name: String? = nil,
    record: Bool? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertLayout(
        [layout], matchesSnapshot: name, record: record,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Reports a failure to whichever framework is running the current test: Swift Testing when
/// there is a current `Test`, XCTest otherwise.
func reportLayoutFailure(_ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    if Test.current != nil {
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column)
            )
        )
    } else {
        XCTFail(message, file: filePath, line: line)
    }
}
