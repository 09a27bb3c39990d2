/// How one collection maps onto a Rails-style REST resource: routes, bodies, versions,
/// pulls and associations (a declarative description, NSRails style).
///
/// ```swift
/// var orders = RESTResource(path: "/orders", wrapKey: "order")
/// orders.nested = .init(path: "/customers/{customer_id}/orders", for: [.create])
/// orders.associations = ["customer_id": "customers"]
/// ```
public struct RESTResource: Sendable {
    /// The collection route, e.g. `/products`; the member route is `path + "/{id}"` unless
    /// set (`path + "{id}/"` for a path that ends with a slash, as Django's routes do).
    public var path: String
    /// The member route template, e.g. `/products/{id}` (`/tasks/{id}/`).
    public var memberPath: String
    /// A format suffix appended to every route, e.g. `.json`; nil for none.
    public var formatSuffix: String?
    /// A nested route used for some operations (NSRails `objectUsedToPrefixRequest`).
    public var nested: NestedRoute?
    /// The body's wrapping key (`{"product": {…}}`); nil sends the bare object.
    public var wrapKey: String?
    /// How local field names become remote ones.
    public var keyStyle: KeyStyle
    /// Explicit renames, local name → remote name; they win over ``keyStyle``.
    public var renames: [String: String]
    /// Remote fields never sent (server-owned); `id`, ``versionField`` and the tombstone
    /// field are never sent whatever this holds.
    public var neverSent: Set<String>
    /// Per-field encode/decode hooks, keyed by local field name.
    public var codecs: [String: RESTFieldCodec]
    /// The verb of updates: `.patch` (NSRails `remoteUpdate`) or `.put` (`remoteReplace`).
    public var updateMethod: UpdateMethod
    /// How a write names the version it is based on.
    public var concurrency: Concurrency
    /// The remote field that holds a record's version (kept out of local copies); nil: the ETag only.
    public var versionField: String?
    /// Who assigns ids: the server (POST answers the id; the object is re-keyed) or the client.
    public var ids: IDAssignment
    /// A regular expression (ICU syntax, as `NSRegularExpression` reads it) that every id the
    /// app chooses for this resource must match as a whole, e.g. `[0-9]+` for integer keys;
    /// nil accepts any non-empty id without control characters (ids are percent-encoded as
    /// one path segment, so any text is safe on the wire). Checked at edit time, before
    /// anything is written; temporary ids of server-assigned resources are exempt
    /// (they are never sent).
    public var idPattern: String?
    /// Fields that reference objects of other collections, local field → collection
    /// (RhoConnect `associations`): sent after the referenced create, re-keyed with it.
    public var associations: [String: String]
    /// How changes are pulled.
    public var pull: PullFeed
    /// The query parameter that finds a record by the idempotency key of the create that
    /// made it (`GET <path>?<parameter>=<key>`); a resent create asks it first and sends no
    /// POST when the record is there. Nil: resent creates rely on ``lostCreates``.
    public var createLookupParameter: String?
    /// How a create whose answer was lost is sent again (resources whose ids the server
    /// assigns; see ``LostCreates``).
    public var lostCreates: LostCreates = .replay
    /// The upload route of each blob field, keyed by local field name (see ``RESTBlobRoute``);
    /// empty: the resource has no blobs.
    public var blobRoutes: [String: RESTBlobRoute] = [:]
    /// The query parameters the change feed filters by, local field → parameter
    /// (`["customerId": "customer_id"]`: `GET /orders?updated_since=…&customer_id=7`). A sync
    /// scope (``CollectionDescriptor/syncScope``) whose terms are all equalities on these
    /// fields is asked of the server; any other scope is applied here to the whole feed.
    public var scopeParameters: [String: String] = [:]

    /// Describes a resource at `path` with Rails defaults: `.json` suffix, snake_case keys,
    /// PATCH, `lock_version` in the body, server-assigned ids, an `updated_since` feed.
    public init(path: String, wrapKey: String? = nil) {
        self.path = path
        self.memberPath = path.hasSuffix("/") ? path + "{id}/" : path + "/{id}"
        self.formatSuffix = ".json"
        self.wrapKey = wrapKey
        self.keyStyle = .snakeCase
        self.renames = [:]
        self.neverSent = ["created_at", "updated_at"]
        self.codecs = [:]
        self.updateMethod = .patch
        self.concurrency = .versionField
        self.versionField = "lock_version"
        self.ids = .server
        self.associations = [:]
        self.pull = PullFeed()
    }

    /// A route under a parent object, filled from the object's own fields.
    public struct NestedRoute: Sendable {
        /// The collection route template, e.g. `/customers/{customer_id}/orders`.
        public var path: String
        /// The operations that use it; the others use the flat route.
        public var operations: Set<Operation>
        /// Describes a nested route.
        public init(path: String, for operations: Set<Operation>) {
            self.path = path
            self.operations = operations
        }
    }

    /// The operations a nested route can serve (deletes and reads carry no fields to fill it: they use the flat route).
    public enum Operation: String, Sendable, Hashable {
        /// POST to the collection route.
        case create
        /// PUT/PATCH to the member route (the nested collection route + `/{id}`).
        case update
    }

    /// How local field names become remote ones.
    public enum KeyStyle: Sendable {
        /// Names are sent as they are.
        case identity
        /// `customerId` locally is `customer_id` on the server, and back.
        case snakeCase
    }

    /// The verb of updates.
    public enum UpdateMethod: String, Sendable {
        /// `PATCH`: the fields of the object.
        case patch = "PATCH"
        /// `PUT`: the whole object.
        case put = "PUT"
    }

    /// How a write names the version it is based on; 409 and 412 both mean conflict.
    public enum Concurrency: Sendable {
        /// `If-Match: "<version>"` (the ETag).
        case ifMatch
        /// ``RESTResource/versionField`` in the body (`lock_version`); deletes put it in the query.
        case versionField
        /// Nothing: last write wins on the server.
        case none
    }

    /// How the store avoids a duplicate when the answer to a create was lost (a timeout, a
    /// broken connection, a crash) on a resource whose ids the server assigns.
    public enum LostCreates: String, Sendable, Hashable {
        /// The create is sent again with the same idempotency key, and the server answers the
        /// record of the first send (the server recipes in Docs/Backends.md). A server that
        /// ignores the key makes a second record.
        case replay
        /// Before the create is sent again, the collection is refreshed: a new record that holds
        /// every field the create sent is taken as its answer, and the create is not resent.
        /// For servers that cannot replay a create. The same happens whenever the backend sends
        /// no idempotency key (``RESTBackend/Configuration/idempotencyHeader`` nil).
        case refresh
    }

    /// Who assigns ids.
    public enum IDAssignment: Sendable {
        /// The server: `id` is never sent, and the POST's answer re-keys the object.
        case server
        /// The client: `id` is sent in the create's body.
        case client
    }
}
