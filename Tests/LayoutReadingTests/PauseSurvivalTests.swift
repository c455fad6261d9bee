import BinaryFixtures
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `--pause` never leaves a server stopped: typeinfo killed while it holds the pause (its whole
/// process group, as systemd, a container's exec or the OOM killer end it), the target runs on.
@Suite(
    "typeinfo killed during --pause", .serialized,
    .enabled(if: TypeinfoExecutable.path != nil, "the typeinfo executable is not built"))
struct PauseSurvivalTests {
    /// The state letter of each thread of `processID`.
    static func states(_ processID: Int32) -> [Character] {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(processID)/task")) ?? []
        return threads.compactMap { thread in
            guard let stat = try? String(contentsOfFile: "/proc/\(processID)/task/\(thread)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            return stat[close...].dropFirst(2).first
        }
    }

    /// Starts `typeinfo arguments` as the leader of its own process group, its output discarded.
    static func spawnInOwnGroup(_ arguments: [String]) throws -> pid_t {
        let typeinfo = try #require(TypeinfoExecutable.path)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([typeinfo] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, typeinfo, &actions, &attributes, argv, environ)
        try #require(status == 0, "posix_spawn: \(status)")
        return child
    }

    /// Kills typeinfo's process group with `signal` once the target is held (a thread in state
    /// `t`), `times` times; each time the target must run again. Returns how many kills landed
    /// during a pause (a run that ended before its pause was seen is tried again).
    static func killDuringPause(signal: Int32, times: Int, command: [String], target: Int32) throws -> Int {
        var landed = 0
        for _ in 0..<(times * 6) where landed < times {
            let typeinfo = try spawnInOwnGroup(command)
            var held = false
            var status: Int32 = 0
            // Watch for the pause (until typeinfo ends on its own).
            for _ in 0..<200_000 {
                if states(target).contains("t") {
                    held = true
                    break
                }
                if waitpid(typeinfo, &status, WNOHANG) == typeinfo { break }
                usleep(100)
            }
            if held {
                kill(-typeinfo, signal)
                while waitpid(typeinfo, &status, 0) < 0 && errno == EINTR {}
                landed += 1
                // Running again: no thread stopped or held, within two seconds.
                var settled = states(target)
                for _ in 0..<2000 where settled.contains(where: { $0 == "t" || $0 == "T" }) {
                    usleep(1000)
                    settled = states(target)
                }
                #expect(!settled.isEmpty && !settled.contains { $0 == "t" || $0 == "T" }, "signal \(signal): \(settled)")
            } else {
                waitpid(typeinfo, &status, 0)
            }
        }
        return landed
    }

    @Test(arguments: [SIGKILL, SIGTERM])
    func theTargetRunsAfterTypeinfosGroupIsKilledMidPause(signal: Int32) throws {
        let fixture = try LiveHeapFixture()
        defer { fixture.finish() }
        let command = ["heap", String(fixture.processID), "--pause"]
        let landed = try Self.killDuringPause(signal: signal, times: 5, command: command, target: fixture.processID)
        #expect(landed == 5, "only \(landed) of the kills came while the target was held")
        // Still the same process, and it answers.
        #expect(try fixture.grow().pid == fixture.processID)
    }
}
