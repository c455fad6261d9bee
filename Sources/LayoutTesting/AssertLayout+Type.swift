import TypeInfo
import TypeLayout

/// Asserts that an in-process type's layout, read through `ClassInfo`, matches a snapshot file
/// kept beside the test, in XCTest or Swift Testing.
///
/// ```swift
/// @Test func packetLayoutIsStable() {
///     assertLayout(of: Packet.self)   // __Snapshots__/PacketTests/MyModule.Packet.layout.json
/// }
/// ```
///
/// When the snapshot is missing it is recorded and the assertion fails once; with
/// `TYPEINFO_RECORD_SNAPSHOTS=1` (or `record: true`) it is rewritten and the assertion passes.
/// A mismatch fails with the same readable diff `typeinfo check` prints.
///
/// - Parameters:
///   - type: the type whose layout must not change.
///   - name: the snapshot's name; by default the type's qualified name.
///   - record: force record mode on or off; `nil` reads `TYPEINFO_RECORD_SNAPSHOTS`.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`, which also decides where the snapshot lives.
///   - line: the caller's line.
///   - column: the caller's column.
public func assertLayout(
    of type: Any.Type,
    matchesSnapshot name: String? = nil,
    record: Bool? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertLayout(
        [ClassInfo.of(type).layout], matchesSnapshot: name, record: record,
        fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Asserts that the layouts of several in-process types match one snapshot file.
///
/// - Parameters:
///   - types: the types whose layouts must not change.
///   - name: the snapshot's name.
///   - record: force record mode on or off; `nil` reads `TYPEINFO_RECORD_SNAPSHOTS`.
///   - fileID: the caller's `#fileID`.
///   - filePath: the caller's `#filePath`, which also decides where the snapshot lives.
///   - line: the caller's line.
///   - column: the caller's column.
public func assertLayout(
    of types: [Any.Type],
    matchesSnapshot name: String,
    record: Bool? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertLayout(
        types.map { ClassInfo.of($0).layout }, matchesSnapshot: name, record: record,
        fileID: fileID, filePath: filePath, line: line, column: column)
}
