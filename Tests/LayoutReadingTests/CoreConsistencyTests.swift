import BinaryFixtures
import BinaryInfo
import Foundation
import Testing
import TypeLayout

/// A core whose memory is not the process's any more: two segments of the server's executable
/// with their bytes exchanged (its relocated read-only data and its writable data, one page each)
/// read as valid memory, and most of the heap would go unattributed without a word. The check of
/// the core against its images' files says so on the report; an untouched core has no warning.
@Suite(
    "a core whose segments' bytes were exchanged",
    .enabled(if: TypeinfoExecutable.path != nil && CoreDump.gcore != nil, "the typeinfo executable is not built, or gcore is missing"))
struct CoreConsistencyTests {
    @Test func exchangedSegmentsAreNamedOnTheReport() throws {
        let server = try LoadServerFixture(.dynamic, environment: ["LOAD_SERVER_WORKERS": "0", "LOAD_SERVER_PARKED": "10"])
        let core = try CoreDump.make(of: server.processID)
        server.finish()
        let untouched = try DumpCommandTests.run(["heap", core, "--top", "1"])
        #expect(untouched.status == 0, "\(untouched.errors)")
        #expect(!untouched.output.contains("warning:"), "\(untouched.output)")
        let tasks = try DumpCommandTests.run(["tasks", core])
        #expect(tasks.status == 0 && !tasks.output.contains("warning:"), "\(tasks.output)\(tasks.errors)")

        // The executable's read-only page after relocation, and its writable page, of one size.
        let memory = try TargetMemory(.core(path: core))
        let executable = try #require(memory.executable)
        let segments = try #require(memory.core?.segments).filter { executable.addressRange.contains($0.address) && $0.fileSize > 0 }
        let readOnly = try #require(segments.first { !$0.isWritable && !$0.isExecutable && $0.address != executable.loadAddress })
        let writable = try #require(segments.first { $0.isWritable && $0.fileSize == readOnly.fileSize }, "\(segments)")
        let swapped = core + ".swapped"
        try? FileManager.default.removeItem(atPath: swapped)
        try FileManager.default.copyItem(atPath: core, toPath: swapped)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: swapped))
        try handle.seek(toOffset: readOnly.offset)
        let first = try #require(try handle.read(upToCount: Int(readOnly.fileSize)))
        try handle.seek(toOffset: writable.offset)
        let second = try #require(try handle.read(upToCount: Int(writable.fileSize)))
        try handle.seek(toOffset: readOnly.offset)
        try handle.write(contentsOf: second)
        try handle.seek(toOffset: writable.offset)
        try handle.write(contentsOf: first)
        try handle.close()

        for command in ["heap", "tasks"] {
            let result = try DumpCommandTests.run([command, swapped])
            let warnings = result.output.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
            #expect(warnings.count == 1, "\(command): \(result.output.prefix(2000))\(result.errors)")
            let warning = try #require(warnings.first.map(String.init))
            #expect(
                warning.contains("(segment 0x\(String(readOnly.address, radix: 16)), relocated read-only data, where no relocation writes)")
            )
            #expect(warning.contains(" differ from \(executable.mappedPath) at file offset 0x"))
            #expect(
                warning.hasSuffix(
                    ": the core was edited or damaged since it was dumped, or the process had changed that memory (a debugger's breakpoints); what is read from it may be wrong"
                ))
        }
        let json = try DumpCommandTests.run(["heap", swapped, "--format", "json"])
        let census = try HeapCensus(jsonData: Data(json.output.utf8))
        #expect(census.target.coreMismatches.map(\.segment) == [readOnly.address])
        #expect(census.target.coreMismatches.first?.isRelocatedReadOnly == true)
    }
}
