@testable import BinaryInfo
import CLibElf
import Testing

/// Which note holds each thread's vector registers in a core: the notes of a thread follow its
/// `NT_PRSTATUS`, and its XSAVE area is preferred to the legacy region.
@Suite("core vector notes")
struct CoreVectorNotesTests {
    static func note(_ owner: String, _ type: Int32, at offset: UInt64) -> ImageNote {
        ImageNote(owner: owner, type: UInt32(type), descriptorOffset: offset, descriptorSize: 512)
    }

    @Test func eachThreadTakesTheVectorNoteAfterItsStatusAndBeforeTheNextThreads() {
        let notes = [
            Self.note("CORE", NT_PRPSINFO, at: 0),
            Self.note("CORE", NT_PRSTATUS, at: 100),
            Self.note("CORE", NT_PRFPREG, at: 200),
            Self.note("LINUX", NT_X86_XSTATE, at: 300),
            Self.note("CORE", NT_PRSTATUS, at: 400),
            Self.note("CORE", NT_PRFPREG, at: 500),
            Self.note("CORE", NT_PRSTATUS, at: 600),
            Self.note("CORE", NT_SIGINFO, at: 700),
            Self.note("CORE", NT_AUXV, at: 800),
        ]
        let found = CoreFile.vectorNotes(notes)
        #expect(found.map { $0?.descriptorOffset } == [300, 500, nil])
        #expect(found.map { $0?.typeName } == ["NT_X86_XSTATE", "NT_PRFPREG", nil])
    }

    @Test func aVectorNoteBeforeAnyThreadBelongsToNone() {
        let notes = [Self.note("LINUX", NT_X86_XSTATE, at: 0), Self.note("CORE", NT_PRSTATUS, at: 100)]
        #expect(CoreFile.vectorNotes(notes).map { $0?.descriptorOffset } == [nil])
    }
}
