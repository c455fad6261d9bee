import Testing
@testable import LayoutReading

/// Resume partial functions and specializations are named as their source function only where
/// the runtime's demangler confirms the operator removed (oracle: `swift demangle`'s text of the
/// whole symbol, stated below as it prints it).
@Suite("Resume function names")
struct ResumeFunctionNameTests {
    @Test func awaitAndSuspendResumePartialFunctionsAreTheirFunction() {
        #expect(
            ResumeFunctionNames.functionName(ofSymbol: "$s9LiveTasks11parkInInboxyySiYaFTQ0_")
                == "LiveTasks.parkInInbox(Swift.Int) async -> ()")
        #expect(
            ResumeFunctionNames.functionName(ofSymbol: "$s9LiveTasks11parkInInboxyySiYaFTY0_")
                == "LiveTasks.parkInInbox(Swift.Int) async -> ()")
    }

    @Test func aSpecializationIsTheFunctionItWasMadeFrom() {
        // "(2) await resume partial function for function signature specialization <Arg[0] = Dead> of LiveTasks.parkInInbox(Swift.Int) async -> ()"
        #expect(
            ResumeFunctionNames.functionName(ofSymbol: "$s9LiveTasks11parkInInboxyySiYaFTf4d_nTQ1_")
                == "LiveTasks.parkInInbox(Swift.Int) async -> ()")
    }

    @Test func otherSymbolsAreNotResumePartialFunctions() {
        #expect(ResumeFunctionNames.functionName(ofSymbol: "$s9LiveTasks11parkInInboxyySiYaF") == nil)
        #expect(ResumeFunctionNames.functionName(ofSymbol: "$s9LiveTasks11parkInInboxyySiYaFTu") == nil)
    }
}
