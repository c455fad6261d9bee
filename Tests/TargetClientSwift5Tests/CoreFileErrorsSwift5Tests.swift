import BinaryInfo
import Foundation
import Testing

/// A core file's errors as a Swift 5 language mode client matches them: a path that is not a
/// regular file, a core that changed while read, one whose program headers lie past its end.
@Suite("Core file errors from a Swift 5 client")
struct CoreFileErrorsSwift5Tests {
    @Test func specialFilesAndChangedCoresAreNamed() {
        do {
            _ = try CoreFile(path: "/dev/null")
            Issue.record("/dev/null was read as a core")
        } catch {
            // The typed throw reaches a Swift 5 client as its BinaryInfoError.
            guard case .notRegularFile(let path, let kind) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == "/dev/null" && kind == .characterDevice)
            #expect(error.description == "/dev/null: is a character device, not a regular file: give an ELF file or a core file")
        }
        let changed = BinaryInfoError.coreChangedWhileRead(path: "core.1", segmentAddress: 0x1000, neededSize: 9000, fileSize: 4096)
        #expect(
            changed.description
                == "core.1: the core file ends at byte 4096, its segment for 0x1000 needs up to 9000: it was cut short or changed while read"
        )
        let headers = BinaryInfoError.coreHeadersOutsideFile(path: "core.1", offset: 64, size: 560, fileSize: 100)
        #expect(
            headers.description.hasPrefix(
                "core.1: truncated core file: it ends at byte 100, inside its program headers (560 bytes at offset 64)"))
        #expect(SpecialFileKind.fifo.description == "a FIFO (named pipe)")
    }
}
