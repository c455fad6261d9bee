import BinaryFixtures
import BinaryInfo
import Foundation
import Testing
import TypeLowering

/// The runtime's debug variables as a Swift 5 language mode client reads them
/// (``RuntimeDebugVariables``), on the LoadServer fixture built by SwiftPM in release.
///
/// The oracle for each derivation is the toolchain's own `libswift_Concurrency.so` and
/// `libswiftCore.so` in the dynamic build, which define both the variable and the symbol its
/// value is derived from: the variable's value must be that symbol's address (or the pointer it
/// holds). The static build, whose linker dropped the variables, must then give the same numbers
/// as the dynamic build of the same toolchain.
@Suite(
    "RuntimeDebugVariables from a Swift 5 client",
    .enabled(
        if: FileManager.default.fileExists(atPath: LoweringConfiguration.resolved().remoteMirrorPath ?? ""),
        "the toolchain has no libswiftRemoteMirror.so"))
struct RuntimeDebugVariablesSwift5Tests {
    static let quiet = ["LOAD_SERVER_WORKERS": "0"]

    static func variables(of processID: Int32) throws -> (RuntimeDebugVariables, TargetMemory) {
        let memory = try TargetMemory(.process(processID))
        let library = LoweringConfiguration.resolved().toolchainConcurrencyLibrary
        return (RuntimeDebugVariables(memory: memory, toolchainConcurrencyLibrary: library), memory)
    }

    @Test func eachDerivationHoldsInTheToolchainsOwnRuntime() throws {
        let server = try LoadServerFixture(.dynamic, environment: Self.quiet)
        defer { server.finish() }
        let (variables, memory) = try Self.variables(of: server.processID)
        let concurrency = try #require(variables.concurrencyImage)
        #expect(concurrency.mappedPath.hasSuffix("/libswift_Concurrency.so"))
        let core = try #require(memory.images.first { $0.mappedPath.hasSuffix("/libswiftCore.so") })
        for variable in RuntimeDebugVariable.allCases {
            // A runtime library exports every variable: read from the target.
            guard case .success(.variable(_, let symbol))? = variables.sources[variable] else {
                Issue.record("\(variable.rawValue): \(String(describing: variables.sources[variable]))")
                continue
            }
            #expect(symbol == variable.rawValue)
            guard let stating = variable.symbolStatingValue else { continue }
            let symbols = try TargetImageSymbols(image: variable.isConcurrency ? concurrency : core)
            let address = try #require(symbols.uniqueAddress(of: stating), "\(stating)")
            let expected = variable.isHeldBySymbol ? try memory.read(UInt64.self, at: address, what: stating) : address
            #expect(try variables.value(of: variable, in: memory).get() == expected, "\(variable.rawValue)")
        }
    }

    @Test func aStaticBuildGivesWhatItsLinkerDropped() throws {
        let dynamicServer = try LoadServerFixture(.dynamic, environment: Self.quiet)
        defer { dynamicServer.finish() }
        let staticServer = try LoadServerFixture(.staticStdlib, environment: Self.quiet)
        defer { staticServer.finish() }
        let (dynamic, dynamicMemory) = try Self.variables(of: dynamicServer.processID)
        let (statically, staticMemory) = try Self.variables(of: staticServer.processID)
        #expect(statically.concurrencyImage?.filePath == staticMemory.executable?.filePath)
        for variable in RuntimeDebugVariable.allCases {
            let source = statically.sources[variable]
            switch source {
            case .success(.variable(_, let symbol))?:
                // Kept by the linker, or the variable holding the same pointer.
                #expect(symbol == variable.rawValue || symbol == variable.symbolStatingValue, "\(variable.rawValue)")
            case .success(.derived(_, .addressOf(let symbol)))?:
                #expect(symbol == variable.symbolStatingValue, "\(variable.rawValue)")
            case .success(.derived(_, .toolchainRuntime(let path)))?:
                #expect(variable.symbolStatingValue == nil, "\(variable.rawValue)")
                #expect(path == LoweringConfiguration.resolved().toolchainConcurrencyLibrary)
                // The same number the dynamic build's runtime of this toolchain holds.
                #expect(
                    try statically.value(of: variable, in: staticMemory).get() == dynamic.value(of: variable, in: dynamicMemory).get(),
                    "\(variable.rawValue)")
            case .failure(let unknown)?: Issue.record("\(variable.rawValue): \(unknown)")
            case nil: Issue.record("\(variable.rawValue): not resolved")
            }
        }
        // The task metadata is the runtime's: its kind word is the one the dynamic build's has.
        let metadata = try statically.value(of: .asyncTaskMetadata, in: staticMemory).get()
        let dynamicMetadata = try dynamic.value(of: .asyncTaskMetadata, in: dynamicMemory).get()
        #expect(
            try staticMemory.read(UInt64.self, at: metadata, what: "kind")
                == dynamicMemory.read(UInt64.self, at: dynamicMetadata, what: "kind"))
    }

    @Test func anotherBuildOfTheRuntimeStatesNoNumbers() throws {
        let server = try LoadServerFixture(.staticStdlib, environment: Self.quiet)
        defer { server.finish() }
        let memory = try TargetMemory(.process(server.processID))
        let executable = try #require(memory.executable)
        // libswiftCore.so defines none of the concurrency runtime's functions.
        let core = try #require(LoweringConfiguration.resolved().toolchainConcurrencyLibrary).replacingOccurrences(
            of: "libswift_Concurrency.so", with: "libswiftCore.so")
        guard case .failure(.tooFewShared(let count)) = ToolchainConcurrencyRuntime.matching(path: core, image: executable) else {
            Issue.record("libswiftCore.so was taken for the concurrency runtime")
            return
        }
        #expect(count < ToolchainConcurrencyRuntime.minimumSharedFunctions)
        let variables = RuntimeDebugVariables(memory: memory, toolchainConcurrencyLibrary: core)
        guard case .failure(.toolchainRuntimeUnusable(let path, .tooFewShared))? = variables.sources[.asyncTaskSize] else {
            Issue.record("\(String(describing: variables.sources[.asyncTaskSize]))")
            return
        }
        #expect(path == core)
        #expect(variables.sources[.internalLayoutVersion] == variables.sources[.asyncTaskSize])
    }
}
