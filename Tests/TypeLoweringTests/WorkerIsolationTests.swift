import BinaryInfo
import Foundation
import Testing
import TypeLayout
@testable import TypeLowering

/// A crash or hang of the worker costs the type it happened on, never the reading.
@Suite("The lowering worker's crashes and hangs stay in the worker")
struct WorkerIsolationTests {
    /// A stand-in worker (a shell script) that crashes on types named `…CRASH…`, hangs on
    /// `…HANG…`, computes silently for about 3 s on `…BUSY…`, crashes when asked to prepare for the
    /// whole file, and answers every other type with an 8-byte struct.
    static let scriptedWorker: String = {
        let path = LoweringFixture.directory + "/scripted-worker.sh"
        let script = """
            #!/bin/sh
            types=""
            while IFS= read -r line; do
              case "$line" in
                "type "*) types="$types ${line#type }";;
                "prepare whole-file") kill -SEGV $$;;
                end) break;;
              esac
            done
            echo "\(LoweringWire.header)"
            echo ready
            for t in $types; do
              echo "begin $t"
              case "$t" in
                *CRASH*) kill -SEGV $$;;
                *HANG*) exec sleep 30;;
                *BUSY*) read up rest < /proc/uptime; now=${up%.*}; until=$((now + 3))
                  while [ "$now" -lt "$until" ]; do read up rest < /proc/uptime; now=${up%.*}; done;;
              esac
              echo "info struct 8 8 8 0"
              echo "end $t"
            done
            """
        _ = FileManager.default.createFile(atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        return path
    }()

    @Test("a crash and a hang each cost one type; the others are answered")
    func crashAndHang() {
        let client = LoweringClient(
            configuration: LoweringConfiguration(remoteMirrorPath: "/unused", workerPath: Self.scriptedWorker, silenceLimit: 1))
        let (types, notes) = client.lower(manglings: ["A", "xCRASHx", "B", "xHANGx", "C"], file: "/unused", dependencies: [])
        for name in ["A", "B", "C"] {
            #expect(types[name]?.size == 8, "\(name) answered after the worker was restarted")
        }
        #expect(types["xCRASHx"]?.size == nil)
        #expect(types["xCRASHx"]?.unknownReason == "the reflection library crashed (signal 11) on it")
        #expect(types["xHANGx"]?.unknownReason == "the reflection library hung (killed after its time limit) on it")
        // Each a note of its kind, which the selection filter narrows by, with the mangling it names.
        #expect(
            notes == [
                .loweringFailed(
                    mangling: "$sxCRASHx", text: "type lowering crashed (signal 11) on $sxCRASHx: its computed layout is unknown"),
                .loweringFailed(
                    mangling: "$sxHANGx",
                    text: "type lowering hung (killed after its time limit) on $sxHANGx: its computed layout is unknown"),
            ])
    }

    @Test("a worker silent past its limit but using CPU is working: it is waited for, and answers")
    func busyWorkerIsWaitedFor() {
        let client = LoweringClient(
            configuration: LoweringConfiguration(remoteMirrorPath: "/unused", workerPath: Self.scriptedWorker, silenceLimit: 1))
        let (types, notes) = client.lower(manglings: ["A", "xBUSYx", "B"], file: "/unused", dependencies: [])
        #expect(types["xBUSYx"]?.size == 8, "\(notes.map(\.text))")
        #expect(types["B"]?.size == 8)
        #expect(notes.isEmpty, "\(notes.map(\.text))")
    }

    @Test("a worker file still open for writing elsewhere (ETXTBSY) starts once the writer lets go")
    func workerFileBusyForAMomentStarts() throws {
        let path = LoweringFixture.directory + "/busy-for-a-moment-worker.sh"
        let script =
            "#!/bin/sh\nwhile IFS= read -r line; do [ \"$line\" = end ] && break; done\necho '\(LoweringWire.header)'\necho ready\n"
        unlink(path)
        let writer = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o755)
        try #require(writer >= 0)
        _ = script.withCString { write(writer, $0, strlen($0)) }
        // While this descriptor is open, exec of the file fails with ETXTBSY, as it does while a
        // process forked by another thread still holds an inherited writer's descriptor.
        let closer = Thread {
            usleep(150_000)
            close(writer)
        }
        closer.start()
        var process = try WorkerProcess(executable: path)
        process.send("end\n")
        var lines: [String] = []
        let ending = try process.finish(silenceLimit: 5) { line throws(TypeLoweringError) in lines.append(line) }
        #expect(lines == [LoweringWire.header, "ready"])
        #expect(ending == .exited(0))
    }

    @Test("a worker file that stays open for writing: one error naming the file and the reason")
    func workerFileKeptBusyIsAnError() throws {
        let path = LoweringFixture.directory + "/kept-busy-worker.sh"
        unlink(path)
        let writer = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o755)
        try #require(writer >= 0)
        defer { close(writer) }
        _ = "#!/bin/sh\n".withCString { write(writer, $0, strlen($0)) }
        #expect(throws: TypeLoweringError.workerUnavailable(path: path, reason: String(cString: strerror(ETXTBSY)))) {
            _ = try WorkerProcess(executable: path)
        }
    }

    @Test("a stat line's CPU time is read after the command name, whatever the name holds")
    func statLineCPUTime() {
        let line = "4711 (a) (b c) R 1 4711 4711 0 -1 4194304 100 0 0 0 250 17 0 0 20 0 1 0 12345 1000 10 18446744073709551615"
        #expect(WorkerCPUTime.ticks(stat: ArraySlice(line.utf8)) == 267)
        #expect(WorkerCPUTime.ticks(stat: ArraySlice("4711 (a) R 1".utf8)) == nil)
        #expect(WorkerCPUTime.ticks(stat: ArraySlice("no name".utf8)) == nil)
    }

    @Test("more crashes than the client tolerates: the rest given up in one note of its kind")
    func givesUpAfterTooManyCrashes() {
        let client = LoweringClient(
            configuration: LoweringConfiguration(remoteMirrorPath: "/unused", workerPath: Self.scriptedWorker, silenceLimit: 1))
        let crashing = Array(repeating: "xCRASHx", count: LoweringClient.maximumRestarts + 3).enumerated().map { "\($1)\($0)" }
        let (types, notes) = client.lower(manglings: ["A"] + crashing, file: "/unused", dependencies: [])
        #expect(types["A"]?.size == 8)
        let failed = notes.filter { if case .loweringFailed = $0 { true } else { false } }
        #expect(failed.count == LoweringClient.maximumRestarts + 1)
        #expect(
            notes.last
                == .loweringGaveUp(
                    "type lowering gave up after \(LoweringClient.maximumRestarts) worker crashes: 2 types have no computed layout"))
    }

    @Test("a crash while preparing for the whole file: one note, and a worker without that preparation answers every type")
    func preparationCrash() {
        let client = LoweringClient(
            configuration: LoweringConfiguration(remoteMirrorPath: "/unused", workerPath: Self.scriptedWorker, silenceLimit: 1))
        var started = client.start(file: "/unused", dependencies: [], wholeFile: true)
        let (types, notes) = client.lower(manglings: ["A", "B"], file: "/unused", dependencies: [], started: &started)
        #expect(types["A"]?.size == 8)
        #expect(types["B"]?.size == 8)
        #expect(
            notes.map(\.text) == [
                "the lowering worker crashed (signal 11) while preparing for the whole file: retried without that preparation"
            ])
    }

    @Test(
        "a missing reflection library: one note, and the document keeps its static facts",
        .enabled(if: canLower, "the typeinfo-lowering worker is missing"))
    func missingLibrary() throws {
        let path = try LoweringFixture.plain.product()
        let document = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
        let configuration = LoweringConfiguration(remoteMirrorPath: "/nonexistent/libswiftRemoteMirror.so", workerPath: lowering.workerPath)
        let computed = ComputedLayouts.compute(forFileAt: path, types: document.types, dependencies: [], configuration: configuration)
        #expect(computed.layouts.isEmpty)
        let unavailable = computed.notes.map(\.text).filter { $0.hasPrefix("computed layouts unavailable for \(path)") }
        #expect(unavailable.count == 1)
        #expect(unavailable.first?.contains("libswiftRemoteMirror unavailable at /nonexistent/libswiftRemoteMirror.so") == true)
        #expect(unavailable.first?.contains("set TYPEINFO_REMOTE_MIRROR") == true)
        #expect(computed.merged(into: document).types == document.types)
        try Self.expectNoAnswerCount(computed.notes, document: document)
    }

    @Test(
        "a missing worker: the uncomputed types are counted as unanswered, not as types the library cannot lower",
        .enabled(if: canLower, "libswiftRemoteMirror.so is missing"))
    func missingWorkerCount() throws {
        let path = try LoweringFixture.plain.product()
        let document = try BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore)
        let configuration = LoweringConfiguration(remoteMirrorPath: lowering.remoteMirrorPath, workerPath: "/nonexistent/typeinfo-lowering")
        let computed = ComputedLayouts.compute(forFileAt: path, types: document.types, dependencies: [], configuration: configuration)
        #expect(computed.layouts.isEmpty)
        let cannotRun = TypeLoweringError.workerUnavailable(path: "/nonexistent/typeinfo-lowering", reason: "No such file or directory")
        #expect(computed.notes.contains(.lowering(cannotRun.description)), "\(computed.notes)")
        try Self.expectNoAnswerCount(computed.notes, document: document)
    }

    /// Every non-generic struct, enum and class is counted once, as given no answer, with the
    /// text that says so; none is blamed on the library.
    static func expectNoAnswerCount(_ notes: [LayoutNote], document: LayoutDocument) throws {
        let expected = document.types.filter { type in
            !type.isGenericOrInGenericContext && type.genericParameters.isEmpty && type.nominalMangledName != nil
                && [.struct, .enum, .optional, .class].contains(type.kind)
        }.count
        #expect(expected > 0)
        #expect(notes.contains(.layoutsNotComputed(count: expected, cause: .noAnswer)), "\(notes)")
        #expect(
            notes.map(\.text).contains(
                "type lowering: \(expected) non-generic types have no computed layout (type lowering gave no answer for them)"))
        #expect(!notes.contains { if case .layoutsNotComputed(_, .libraryCannotLower) = $0 { return true } else { return false } })
    }

    @Test("a missing worker executable: one note naming the variable to set")
    func missingWorker() {
        let client = LoweringClient(
            configuration: LoweringConfiguration(remoteMirrorPath: "/unused", workerPath: "/nonexistent/typeinfo-lowering"))
        let (types, notes) = client.lower(manglings: ["A"], file: "/unused", dependencies: [])
        #expect(types.isEmpty)
        #expect(
            notes.map(\.text) == [
                "the lowering worker /nonexistent/typeinfo-lowering cannot run (No such file or directory): computed layouts are off; set TYPEINFO_LOWERING_WORKER to the typeinfo-lowering executable"
            ])
    }

    /// Seeded corruption of the fixture's Swift sections: the reading finishes every time, with
    /// whatever the worker could say, and the test process never crashes or hangs.
    @Test(
        "corrupted Swift sections: no crash, no hang",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"))
    func corruptedSections() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: try LoweringFixture.plain.product()))
        let image = try LoadableImage(path: try LoweringFixture.plain.product())
        let sectionsToCorrupt = ["swift5_fieldmd", "swift5_typeref", "swift5_reflstr", "swift5_builtin"]
        // Linked executables map their sections at address == file offset within the first pages;
        // corruption targets the file offsets of the Swift sections through the ELF's own view.
        let targets = sectionsToCorrupt.compactMap { name in image.swiftSections[name].map { (name, $0) } }
        #expect(targets.count == sectionsToCorrupt.count)
        var generator = SplitMix64(seed: 0x5EED_1A7E)
        let dependencies = LibraryDependencies.resolve(
            forFileAt: try LoweringFixture.plain.product(), toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory
        ).paths
        var configuration = lowering
        configuration.silenceLimit = 10
        for variant in 0..<6 {
            var bytes = [UInt8](original)
            let (_, section) = targets[variant % targets.count]
            guard let offset = image.fileOffset(ofAddress: section.address) else { continue }
            for _ in 0..<8 {
                let position = Int(offset) + Int(generator.next() % max(section.size, 1))
                if position < bytes.count { bytes[position] = UInt8(truncatingIfNeeded: generator.next()) }
            }
            let path = LoweringFixture.directory + "/corrupt-\(variant)"
            _ = FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o755])
            guard let document = try? BinaryImage.layouts(atPath: path, runtimeLibrary: ToolchainRuntime.libswiftCore) else { continue }
            let computed = ComputedLayouts.compute(
                forFileAt: path, types: document.types, dependencies: dependencies, configuration: configuration)
            _ = computed.merged(into: document)
        }
    }
}

/// A small deterministic generator, so a failing variant can be reproduced.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A dependency whose tables cannot be read is laid out on first reach (ImageMemory): it stays
/// unreadable, so what needs it is unknown, and nothing stated differs from a reading with the
/// intact dependency.
@Suite("A dependency with unreadable tables")
struct UnreadableDependencyTests {
    @Test(
        "libswiftCore with a relocation table of entry size 0: no crash, no stated fact differs",
        .enabled(if: canLower, "libswiftRemoteMirror.so or the typeinfo-lowering worker is missing"))
    func unreadableRelocations() throws {
        let file = try LoweringFixture.plain.product()
        let dependencies = LibraryDependencies.resolve(forFileAt: file, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
            .paths
        let core = try #require(dependencies.first { $0.hasSuffix("/libswiftCore.so") }, "no libswiftCore.so among \(dependencies)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: core)))
        // sh_entsize (+0x38) of `.rela.dyn` set to 0: the section headers still read, the table not.
        let headerOffset = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0x28, as: UInt64.self) })
        let entrySize = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0x3A, as: UInt16.self) })
        let count = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0x3C, as: UInt16.self) })
        var patched = 0
        for index in 0..<count {
            let header = headerOffset + index * entrySize
            // SHT_RELA (4) with SHF_ALLOC: the dynamic relocations.
            let type = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: header + 4, as: UInt32.self) }
            let flags = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: header + 8, as: UInt64.self) }
            guard type == 4, flags & 2 != 0 else { continue }
            for byte in 0..<8 { bytes[header + 0x38 + byte] = 0 }
            patched += 1
        }
        #expect(patched > 0)
        let corrupt = LoweringFixture.directory + "/libswiftCore.so"
        _ = FileManager.default.createFile(atPath: corrupt, contents: Data(bytes))
        let document = try BinaryImage.layouts(atPath: file, runtimeLibrary: ToolchainRuntime.libswiftCore)
        let intact = ComputedLayouts.compute(forFileAt: file, types: document.types, dependencies: dependencies, configuration: lowering)
        let broken = ComputedLayouts.compute(
            forFileAt: file, types: document.types, dependencies: dependencies.map { $0 == core ? corrupt : $0 }, configuration: lowering)
        #expect(!intact.layouts.isEmpty)
        var stated = 0
        for (name, layout) in broken.layouts {
            guard let size = layout.size else { continue }
            stated += 1
            #expect(intact.layouts[name]?.size == size, "\(name)")
            for field in layout.fields where field.offset != nil {
                #expect(intact.layouts[name]?.fields.first { $0.name == field.name }?.offset == field.offset, "\(name).\(field.name)")
            }
        }
        let known = intact.layouts.values.filter { $0.size != nil }.count
        #expect(stated < known, "the unreadable standard library left \(stated) of \(known) sizes stated")
    }
}
