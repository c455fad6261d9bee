import BinaryFixtures
import Foundation
import Testing

/// The load fixture itself: built by SwiftPM as users build servers, and busy while it is read.
@Suite struct LoadServerFixtureTests {
    @Test(arguments: FixtureLinking.allCases)
    func churnsWhileItsStablePopulationStays(_ linking: FixtureLinking) throws {
        let server = try LoadServerFixture(linking)
        defer { server.finish() }
        #expect(server.report.stableRecords == 20_000)
        #expect(server.report.workers >= 2)
        let before = try server.stats().made
        usleep(200_000)
        let after = try server.stats().made
        #expect(after > before + 1_000, "the churn made \(after - before) objects in 0.2 s")
    }
}
