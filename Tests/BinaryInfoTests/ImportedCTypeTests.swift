import BinaryFixtures
import Testing
import TypeLayout
@testable import BinaryInfo

/// Imported C anonymous member types (issue 8 §3): the runtime merges same-named ones into one
/// metadata, so the size each record states is not what the runtime uses; the reader withholds
/// exactly those facts and states every other one as the compiler lays it out.
@Suite("Imported C types")
struct ImportedCTypeTests {
    /// The types the runtime must have merged for the fixture to test anything.
    static let expectedShared: Set<String> = [
        "__C.token_s.__Unnamed_union_data", "__C.event_s.__Unnamed_union_data", "__C.node_s.__Unnamed_union_data",
        "__C.document_s.__Unnamed_struct_tag_directives", "__C.parser_s.__Unnamed_struct_tag_directives",
    ]

    @Test("anonymous union and struct members of a -O program: shared ones unknown, every other size and offset as MemoryLayout says")
    func anonymousMembers() throws {
        let (path, oracle) = try ImportedCFixture.program()
        let document = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(oracle.runtimeShared.isSuperset(of: Self.expectedShared), "\(oracle.runtimeShared)")
        #expect(ImportedCFixture.disagreements(of: document.types, with: oracle) == [])
        #expect(
            document.image.notes.contains {
                guard case .runtimeMergedCTypes(let types) = $0 else { return false }
                return Set(types).isSuperset(of: [
                    .init(name: "__C.token_s.__Unnamed_union_data", size: 24), .init(name: "__C.event_s.__Unnamed_union_data", size: 48),
                    .init(name: "__C.node_s.__Unnamed_union_data", size: 32),
                ])
            }, "\(document.image.notes)")
        // Same name, same layout: whichever the runtime picks, the facts hold, so they are stated.
        let buffer = try #require(document.types.first { $0.name == "__C.document_s.__Unnamed_struct_buffer" })
        #expect(buffer.size == 16)
    }
}
