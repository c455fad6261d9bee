import BinaryInfo
import Foundation
import Testing

@testable import LayoutReading

/// A core file written while the live commands read it: the reading's outcome is refused with
/// one message, whatever the reading made of the changed bytes.
@Suite("A core file written while it is read")
struct CoreModifiedWhileReadTests {
    @Test func writtenCoreIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("core-modified-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("core.1").path
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: path))
        let options = LiveTargetOptions(target: .core(path: path))
        // Unchanged: the reading's outcome stands.
        #expect(try options.whilePaused { _ throws(LiveReadingError) in 42 } == 42)
        // Written in place, same size (a later modification time), while "read".
        do {
            _ = try options.whilePaused { _ throws(LiveReadingError) in
                let handle = FileHandle(forWritingAtPath: path)!
                try? handle.seek(toOffset: 100)
                try? handle.write(contentsOf: Data([1, 2, 3]))
                try? handle.close()
                // A modification time must differ from the one taken before (filesystem granularity).
                try? FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 12345)], ofItemAtPath: path)
                return 42
            }
            Issue.record("a core written while it was read was accepted")
        } catch {
            #expect(error == .target(.coreModifiedWhileRead(path: path)))
            #expect(
                error.description
                    == "\(path): the core file was written, truncated or replaced while it was read (its size, modification time or inode changed), so what was read may mix two contents: read it again once nothing writes it"
            )
        }
        // Truncated while read, with the reading failing on it: the change is what is reported.
        #expect(throws: LiveReadingError.target(.coreModifiedWhileRead(path: path))) {
            try options.whilePaused { _ throws(LiveReadingError) -> Int in
                _ = truncate(path, 10)
                throw .notSwift(target: path)
            }
        }
    }
}
