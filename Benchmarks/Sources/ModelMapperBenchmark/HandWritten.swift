import Foundation
@_spi(HandWritten) import ModelMapper

// The floor: what a person would write by hand on the mapper's own JSON reader and writer,
// a switch over keys and direct field assignments; no metadata, no plans, no codecs.

enum HandWritten {
    static func user(_ doc: RawJSONDocument, _ object: Int) throws -> MUser {
        var u = MUser()
        try doc.forEachMember(object) { key, v in
            switch key {
            case "login": u.login = try doc.string(v)
            case "id": u.id = try doc.int(v)
            case "node_id": u.nodeId = try doc.string(v)
            case "avatar_url": u.avatarUrl = try doc.string(v)
            case "gravatar_id": u.gravatarId = try doc.string(v)
            case "url": u.url = try doc.string(v)
            case "html_url": u.htmlUrl = try doc.string(v)
            case "followers_url": u.followersUrl = try doc.string(v)
            case "following_url": u.followingUrl = try doc.string(v)
            case "gists_url": u.gistsUrl = try doc.string(v)
            case "starred_url": u.starredUrl = try doc.string(v)
            case "subscriptions_url": u.subscriptionsUrl = try doc.string(v)
            case "organizations_url": u.organizationsUrl = try doc.string(v)
            case "repos_url": u.reposUrl = try doc.string(v)
            case "events_url": u.eventsUrl = try doc.string(v)
            case "received_events_url": u.receivedEventsUrl = try doc.string(v)
            case "type": u.type = try doc.string(v)
            case "site_admin": u.siteAdmin = try doc.bool(v)
            case "name": u.name = try doc.string(v)
            case "company": u.company = doc.isNull(v) ? nil : try doc.string(v)
            case "blog": u.blog = try doc.string(v)
            case "location": u.location = try doc.string(v)
            case "email": u.email = doc.isNull(v) ? nil : try doc.string(v)
            case "hireable": u.hireable = doc.isNull(v) ? nil : try doc.bool(v)
            case "bio": u.bio = try doc.string(v)
            case "public_repos": u.publicRepos = try doc.int(v)
            case "public_gists": u.publicGists = try doc.int(v)
            case "followers": u.followers = try doc.int(v)
            case "following": u.following = try doc.int(v)
            case "created_at": u.createdAt = try doc.date(v)
            case "updated_at": u.updatedAt = try doc.date(v)
            default: break
            }
        }
        return u
    }

    static func license(_ doc: RawJSONDocument, _ object: Int) throws -> MLicense {
        var l = MLicense()
        try doc.forEachMember(object) { key, v in
            switch key {
            case "key": l.key = try doc.string(v)
            case "name": l.name = try doc.string(v)
            case "spdx_id": l.spdxId = try doc.string(v)
            default: break
            }
        }
        return l
    }

    static func repo(_ doc: RawJSONDocument, _ object: Int) throws -> MRepo {
        var r = MRepo()
        try doc.forEachMember(object) { key, v in
            switch key {
            case "id": r.id = try doc.int(v)
            case "name": r.name = try doc.string(v)
            case "full_name": r.fullName = try doc.string(v)
            case "private": r.private = try doc.bool(v)
            case "owner": r.owner = try user(doc, v)
            case "description": r.description = doc.isNull(v) ? nil : try doc.string(v)
            case "fork": r.fork = try doc.bool(v)
            case "homepage": r.homepage = doc.isNull(v) ? nil : try doc.string(v)
            case "size": r.size = try doc.int(v)
            case "stargazers_count": r.stargazersCount = try doc.int(v)
            case "watchers_count": r.watchersCount = try doc.int(v)
            case "language": r.language = doc.isNull(v) ? nil : try doc.string(v)
            case "forks_count": r.forksCount = try doc.int(v)
            case "open_issues_count": r.openIssuesCount = try doc.int(v)
            case "score": r.score = try doc.double(v)
            case "topics":
                var topics: [String] = []
                try doc.forEachElement(v) { topics.append(try doc.string($0)) }
                r.topics = topics
            case "license": r.license = doc.isNull(v) ? nil : try license(doc, v)
            case "created_at": r.createdAt = try doc.date(v)
            case "updated_at": r.updatedAt = try doc.date(v)
            case "pushed_at": r.pushedAt = try doc.date(v)
            default: break
            }
        }
        return r
    }

    static func feed(_ doc: RawJSONDocument, _ object: Int) throws -> MFeed {
        var f = MFeed()
        try doc.forEachMember(object) { key, v in
            switch key {
            case "total_count": f.totalCount = try doc.int(v)
            case "incomplete_results": f.incompleteResults = try doc.bool(v)
            case "items":
                var items: [MRepo] = []
                try doc.forEachElement(v) { items.append(try repo(doc, $0)) }
                f.items = items
            default: break
            }
        }
        return f
    }

    static func decodeUser(_ data: Data) throws -> MUser {
        try RawJSONDocument.with(data) { try user($0, $0.root) }
    }

    static func decodeFeed(_ data: Data) throws -> MFeed {
        try RawJSONDocument.with(data) { try feed($0, $0.root) }
    }

    // MARK: Encoding

    static func optional(_ value: String?, _ w: inout RawJSONWriter) {
        if let value { w.string(value) } else { w.null() }
    }

    static func write(_ u: MUser, _ w: inout RawJSONWriter) {
        w.raw("{\"login\":"); w.string(u.login)
        w.raw(",\"id\":"); w.int(u.id)
        w.raw(",\"node_id\":"); w.string(u.nodeId)
        w.raw(",\"avatar_url\":"); w.string(u.avatarUrl)
        w.raw(",\"gravatar_id\":"); w.string(u.gravatarId)
        w.raw(",\"url\":"); w.string(u.url)
        w.raw(",\"html_url\":"); w.string(u.htmlUrl)
        w.raw(",\"followers_url\":"); w.string(u.followersUrl)
        w.raw(",\"following_url\":"); w.string(u.followingUrl)
        w.raw(",\"gists_url\":"); w.string(u.gistsUrl)
        w.raw(",\"starred_url\":"); w.string(u.starredUrl)
        w.raw(",\"subscriptions_url\":"); w.string(u.subscriptionsUrl)
        w.raw(",\"organizations_url\":"); w.string(u.organizationsUrl)
        w.raw(",\"repos_url\":"); w.string(u.reposUrl)
        w.raw(",\"events_url\":"); w.string(u.eventsUrl)
        w.raw(",\"received_events_url\":"); w.string(u.receivedEventsUrl)
        w.raw(",\"type\":"); w.string(u.type)
        w.raw(",\"site_admin\":"); w.bool(u.siteAdmin)
        w.raw(",\"name\":"); w.string(u.name)
        w.raw(",\"company\":"); optional(u.company, &w)
        w.raw(",\"blog\":"); w.string(u.blog)
        w.raw(",\"location\":"); w.string(u.location)
        w.raw(",\"email\":"); optional(u.email, &w)
        w.raw(",\"hireable\":"); if let h = u.hireable { w.bool(h) } else { w.null() }
        w.raw(",\"bio\":"); w.string(u.bio)
        w.raw(",\"public_repos\":"); w.int(u.publicRepos)
        w.raw(",\"public_gists\":"); w.int(u.publicGists)
        w.raw(",\"followers\":"); w.int(u.followers)
        w.raw(",\"following\":"); w.int(u.following)
        w.raw(",\"created_at\":"); w.date(u.createdAt)
        w.raw(",\"updated_at\":"); w.date(u.updatedAt)
        w.raw("}")
    }

    static func write(_ r: MRepo, _ w: inout RawJSONWriter) {
        w.raw("{\"id\":"); w.int(r.id)
        w.raw(",\"name\":"); w.string(r.name)
        w.raw(",\"full_name\":"); w.string(r.fullName)
        w.raw(",\"private\":"); w.bool(r.private)
        w.raw(",\"owner\":"); write(r.owner, &w)
        w.raw(",\"description\":"); optional(r.description, &w)
        w.raw(",\"fork\":"); w.bool(r.fork)
        w.raw(",\"homepage\":"); optional(r.homepage, &w)
        w.raw(",\"size\":"); w.int(r.size)
        w.raw(",\"stargazers_count\":"); w.int(r.stargazersCount)
        w.raw(",\"watchers_count\":"); w.int(r.watchersCount)
        w.raw(",\"language\":"); optional(r.language, &w)
        w.raw(",\"forks_count\":"); w.int(r.forksCount)
        w.raw(",\"open_issues_count\":"); w.int(r.openIssuesCount)
        w.raw(",\"score\":"); w.double(r.score)
        w.raw(",\"topics\":[")
        for (k, topic) in r.topics.enumerated() {
            if k > 0 { w.raw(",") }
            w.string(topic)
        }
        w.raw("],\"license\":")
        if let l = r.license {
            w.raw("{\"key\":"); w.string(l.key)
            w.raw(",\"name\":"); w.string(l.name)
            w.raw(",\"spdx_id\":"); w.string(l.spdxId)
            w.raw("}")
        } else {
            w.null()
        }
        w.raw(",\"created_at\":"); w.date(r.createdAt)
        w.raw(",\"updated_at\":"); w.date(r.updatedAt)
        w.raw(",\"pushed_at\":"); w.date(r.pushedAt)
        w.raw("}")
    }

    static func encodeUser(_ u: MUser) -> Data {
        var w = RawJSONWriter()
        write(u, &w)
        return w.data
    }

    static func encodeFeed(_ f: MFeed) -> Data {
        var w = RawJSONWriter()
        w.raw("{\"total_count\":"); w.int(f.totalCount)
        w.raw(",\"incomplete_results\":"); w.bool(f.incompleteResults)
        w.raw(",\"items\":[")
        for (k, item) in f.items.enumerated() {
            if k > 0 { w.raw(",") }
            write(item, &w)
        }
        w.raw("]}")
        return w.data
    }
}
