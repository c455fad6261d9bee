import Testing

@testable import LayoutReading

/// A future's status is stated only for the three shapes the runtime writes; every other reading
/// of the fragment (damaged memory, a fragment looked for in the wrong place) states none.
@Suite("Future fragments are read only where consistent")
struct FutureCompletionTests {
    static let named: UInt64 = 0x7f00_0000_1000
    static let waiter: UInt64 = 0x5555_0000_2000
    static let error: UInt64 = 0x5555_0000_3000

    static func status(_ waitQueue: UInt64, resultType: UInt64 = named, error: UInt64 = 0) -> FutureCompletion.Status? {
        let completion = FutureCompletion(fragments: [0x10: .init(waitQueue: waitQueue, resultType: resultType, error: error)])
        return completion.status(of: 0x10, namedTypes: [named], isTask: { $0 == waiter })
    }

    @Test func theRuntimesShapesAreRead() {
        #expect(Self.status(0) == .executing)
        #expect(Self.status(Self.waiter) == .executing)
        #expect(Self.status(1) == .returned)
        #expect(Self.status(2, error: Self.error) == .threw)
    }

    @Test func anyOtherReadingIsUnknown() {
        #expect(Self.status(3) == nil, "no such status")
        #expect(Self.status(1, resultType: 0x7f00_0000_2000) == nil, "a result type the library did not name")
        #expect(Self.status(Self.waiter | 1) == nil, "completed, yet a waiter")
        #expect(Self.status(1, error: Self.error) == nil, "returned, yet an error")
        #expect(Self.status(2) == nil, "threw, without an error")
        #expect(Self.status(0x5555_0000_4000) == nil, "a waiter that is no task")
        #expect(Self.status(0, error: Self.error) == nil, "executing, yet an error")
        #expect(FutureCompletion(fragments: [:]).status(of: 0x10, namedTypes: [Self.named], isTask: { _ in true }) == nil)
    }
}
