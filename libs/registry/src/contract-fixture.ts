/**
 * Verbatim transcription of the contract tables the registry is tested
 * against (sections 4.3, 4.4 and 5.3 of shared/spec/service-contract.md).
 * Tests parse the live contract when it is present and fall back to this copy;
 * a test also checks that this copy still equals the live tables.
 */
export const CONTRACT_FIXTURE = `### 4.3 v0 to v1 operation map
| v0 operation | Availability | Class | v1 operation |
|---|---|---|---|
| GET / | supported | adaptation-required | getApiVersion (path not given here) |
| GET /calendar/{token}.ics | supported | retained-v0 | none; remains on v0 until a calendar domain exists in v1 |
| DELETE /callnotes | deprecated-alias | adaptation-required | DELETE /call-notes/{id} archiveCallNote |
| GET /callnotes | supported | equivalent | GET /call-notes listCallNotes |
| POST /callnotes | supported | equivalent | POST /call-notes createCallNote |
| DELETE /callnotes/{_id} | supported | adaptation-required | DELETE /call-notes/{id} archiveCallNote |
| GET /callnotes/{_id} | supported | equivalent | GET /call-notes/{id} getCallNote |
| DELETE /contactgroups | unavailable | adaptation-required | DELETE /contact-groups/{id} archiveContactGroup |
| GET /contactgroups | supported | equivalent | GET /contact-groups listContactGroups |
| POST /contactgroups | unavailable | equivalent | POST /contact-groups createContactGroup |
| PUT /contactgroups | unavailable | adaptation-required | PATCH /contact-groups/{id} updateContactGroup |
| DELETE /contactgroups/{_id} | unavailable | adaptation-required | DELETE /contact-groups/{id} archiveContactGroup |
| GET /contactgroups/{_id} | supported | equivalent | GET /contact-groups/{id} getContactGroup |
| PUT /contactgroups/{_id} | unavailable | adaptation-required | PATCH /contact-groups/{id} updateContactGroup |
| GET /contacts | supported | equivalent | GET /contacts listContacts |
| POST /contacts | supported | equivalent | POST /contacts createContact |
| PUT /contacts | deprecated-alias | adaptation-required | PATCH /contacts/{id} updateContact |
| GET /contacts/{_id} | supported | equivalent | GET /contacts/{id} getContact |
| PUT /contacts/{_id} | supported | adaptation-required | PATCH /contacts/{id} updateContact |
| DELETE /journalEntries | unavailable | adaptation-required | DELETE /project-statements/{id} archiveProjectStatement |
| GET /journalEntries | supported | adaptation-required | GET /project-statements listProjectStatements |
| POST /journalEntries | unavailable | adaptation-required | POST /project-statements createProjectStatement |
| PUT /journalEntries | unavailable | adaptation-required | PATCH /project-statements/{id} updateProjectStatement |
| DELETE /journalEntries/{_id} | unavailable | adaptation-required | DELETE /project-statements/{id} archiveProjectStatement |
| GET /journalEntries/{_id} | supported | adaptation-required | GET /project-statements/{id} getProjectStatement |
| PUT /journalEntries/{_id} | unavailable | adaptation-required | PATCH /project-statements/{id} updateProjectStatement |
| DELETE /lists | deprecated-alias | adaptation-required | DELETE /lists/{id} archiveList |
| GET /lists | supported | equivalent | GET /lists listLists |
| POST /lists | supported | equivalent | POST /lists createList |
| PUT /lists | deprecated-alias | adaptation-required | PATCH /lists/{id} updateList |
| DELETE /lists/{_id} | supported | adaptation-required | DELETE /lists/{id} archiveList |
| GET /lists/{_id} | supported | equivalent | GET /lists/{id} getList |
| PUT /lists/{_id} | supported | adaptation-required | PATCH /lists/{id} updateList |
| DELETE /productgroups | deprecated-alias | adaptation-required | DELETE /product-groups/{id} archiveProductGroup |
| GET /productgroups | supported | equivalent | GET /product-groups listProductGroups |
| POST /productgroups | supported | equivalent | POST /product-groups createProductGroup |
| PUT /productgroups | deprecated-alias | adaptation-required | PATCH /product-groups/{id} updateProductGroup |
| DELETE /productgroups/{_id} | supported | adaptation-required | DELETE /product-groups/{id} archiveProductGroup |
| GET /productgroups/{_id} | supported | equivalent | GET /product-groups/{id} getProductGroup |
| PUT /productgroups/{_id} | supported | adaptation-required | PATCH /product-groups/{id} updateProductGroup |
| DELETE /products | deprecated-alias | adaptation-required | DELETE /products/{id} archiveProduct |
| GET /products | supported | equivalent | GET /products listProducts |
| POST /products | supported | equivalent | POST /products createProduct |
| PUT /products | deprecated-alias | adaptation-required | PATCH /products/{id} updateProduct |
| DELETE /products/{_id} | supported | adaptation-required | DELETE /products/{id} archiveProduct |
| GET /products/{_id} | supported | equivalent | GET /products/{id} getProduct |
| PUT /products/{_id} | supported | adaptation-required | PATCH /products/{id} updateProduct |
| GET /projects | supported | equivalent | GET /projects listProjects |
| POST /projects | supported | equivalent | POST /projects createProject |
| PUT /projects | deprecated-alias | adaptation-required | PATCH /projects/{id} updateProject |
| GET /projects/{_id} | supported | equivalent | GET /projects/{id} getProject |
| PUT /projects/{_id} | supported | adaptation-required | PATCH /projects/{id} updateProject |
| DELETE /projectTemplates | unavailable | adaptation-required | DELETE /project-templates/{id} archiveProjectTemplate |
| GET /projectTemplates | supported | equivalent | GET /project-templates listProjectTemplates |
| POST /projectTemplates | unavailable | equivalent | POST /project-templates createProjectTemplate |
| PUT /projectTemplates | unavailable | adaptation-required | PATCH /project-templates/{id} updateProjectTemplate |
| DELETE /projectTemplates/{_id} | unavailable | adaptation-required | DELETE /project-templates/{id} archiveProjectTemplate |
| GET /projectTemplates/{_id} | supported | equivalent | GET /project-templates/{id} getProjectTemplate |
| PUT /projectTemplates/{_id} | unavailable | adaptation-required | PATCH /project-templates/{id} updateProjectTemplate |
| GET /scheduledWork | supported | adaptation-required | GET /planned-work listPlannedWork |
| GET /services | supported | equivalent | GET /services listServices |
| GET /services/{_id} | supported | equivalent | GET /services/{id} getService |
| GET /tags | supported | equivalent | GET /tags listTags |
| GET /tags/{_id} | supported | equivalent | GET /tags/{id} getTag |
| DELETE /tasks | deprecated-alias | adaptation-required | DELETE /tasks/{id} archiveTask |
| GET /tasks | supported | equivalent | GET /tasks listTasks |
| POST /tasks | supported | equivalent | POST /tasks createTask |
| PUT /tasks | deprecated-alias | adaptation-required | PATCH /tasks/{id} updateTask |
| DELETE /tasks/{_id} | supported | adaptation-required | DELETE /tasks/{id} archiveTask |
| GET /tasks/{_id} | supported | equivalent | GET /tasks/{id} getTask |
| PUT /tasks/{_id} | supported | adaptation-required | PATCH /tasks/{id} updateTask |
| POST /tasks/{_id}/startTracking | supported | equivalent | POST /tasks/{id}/timer/start startTaskTimer |
| POST /tasks/{_id}/stopTracking | supported | equivalent | POST /tasks/{id}/timer/stop stopTaskTimer |
| GET /teams | supported | adaptation-required | GET /workspace getWorkspace |
| DELETE /times | deprecated-alias | adaptation-required | DELETE /time-entries/{id} archiveTimeEntry |
| GET /times | supported | equivalent | GET /time-entries listTimeEntries |
| POST /times | supported | equivalent | POST /time-entries createTimeEntry |
| PUT /times | deprecated-alias | adaptation-required | PATCH /time-entries/{id} updateTimeEntry |
| DELETE /times/{_id} | supported | adaptation-required | DELETE /time-entries/{id} archiveTimeEntry |
| GET /times/{_id} | supported | equivalent | GET /time-entries/{id} getTimeEntry |
| PUT /times/{_id} | supported | adaptation-required | PATCH /time-entries/{id} updateTimeEntry |
| GET /users | supported | equivalent | GET /users listUsers |
| DELETE /webhooks | deprecated-alias | adaptation-required | DELETE /webhooks/{id} removeWebhook |
| GET /webhooks | supported | adaptation-required | GET /webhooks listWebhooks |
| POST /webhooks | supported | adaptation-required | POST /webhooks createWebhook |
| DELETE /webhooks/{_id} | supported | adaptation-required | DELETE /webhooks/{id} removeWebhook |
| GET /webhooks/{_id} | supported | adaptation-required | GET /webhooks/{id} getWebhook |

### 4.4 v1 operations with stated behavior
| Method and path | Scope | Behavior |
|---|---|---|
| GET /v1/auth/context | none beyond a valid credential | returns the authenticating credential's own safe metadata; response header \`Cache-Control: private, no-store\` |
| DELETE /v1/auth/context | none beyond a valid credential | permanently revokes exactly the authenticating credential; \`Cache-Control: private, no-store\` |
| GET /workspace | workspace:read | workspace metadata; usable to separate authentication failure from operation-authorization failure |

### 5.3 v1 scopes
| Scope(s) | Access |
|---|---|
| workspace:read | workspace metadata, system capabilities, entitlements |
| workspace-settings:read, workspace-settings:write | read or compare-and-set a six-field safe settings projection; sensitive |
| projects:read, projects:write | project reads and field mutations |
| projects:lifecycle | complete, reopen, archive, restore, inspect asynchronous lifecycle operations |
| projects:sharing | read and atomically replace project access-control entries; sensitive for human principals |
| tasks:read, tasks:write | tasks and task metadata |
| task-recurrences:read, :write, :run | read recurrence state (also needs tasks:read); manage, preview, recheck series (needs tasks:read and tasks:write); external event submission uses task-recurrences:run plus tasks:write |
| time-entries:read, time-entries:write | time entries |
| time-entries:billing | read and compare-and-set billable state and billing rate; sensitive finance |
| contacts:read, contacts:write | contacts |
| call-notes:read, call-notes:write | plain-text call notes and archive lifecycle |
| contact-groups:read, contact-groups:write | hierarchical contact groups |
| users:read | workspace users |
| lists:read, lists:write | project and task lists |
| services:read, services:write | services and billing configuration; services:read can read billing rates |
| tags:read, tags:write | tags |
| custom-field-definitions:read, :write | custom-field schemas, configuration, lifecycle (not values) |
| custom-field-values:read, :write | values on supported resources; also needs the target resource's read or write scope |
| project-templates:read, :write | template metadata and lifecycle; instantiation also needs projects:write |
| planned-work:read, planned-work:write | sensitive workload windows and atomic task-schedule replacement |
| appointments:read, appointments:write | appointments within the normal acting-user boundary |
| appointments:delegated:read, :write | another member's appointments; sensitive; sharing and product-permission checks apply |
| absences:read, absences:write | absences within the acting-user boundary |
| absences:delegated:read | read another member's absences; sensitive |
| absences:admin:write | create or change another member's absences; sensitive |
| availability:read | derived availability within the acting-user boundary |
| availability:delegated:read | derived availability of another member; sensitive; sharing and product-permission checks apply |
| activity:read | target activity; also needs the matching contact, project or task read scope |
| comments:read, comments:write | target comments; also needs the matching contact, project or task read scope |
| documents:read, documents:write | bounded document content and lifecycle |
| files:read, files:write | file metadata, lifecycle, short-lived private transfer intents |
| products:read, products:write | product catalog excluding acquisition cost |
| products:finance:read, :write | reveal or mutate product purchasePrice; only in addition to the matching product scope |
| product-groups:read, :write | hierarchical product groups |
| project-statements:read, :write | non-budget statements excluding acquisition cost |
| project-statements:finance:read, :write | read budget statements; reveal or mutate statement purchasePrice; only in addition to the matching statement scope |
| members:read, members:write | membership and role assignment; sensitive |
| members:pii:read | reveal member or invitation personal data, paired with the base read scope |
| invitations:read, :write | pending invitation lifecycle; sensitive |
| roles:read, roles:write | roles and permission configuration; sensitive |
| groups:read, groups:write | workspace groups and membership; sensitive |
| search:read | federated search; also needs every requested resource-domain read scope |
| exports:read, exports:write | bounded export jobs and header-capability downloads; sensitive |
| automations:read, automations:write | automation action metadata, definitions, versions, runs; writes also need scopes implied by the flow |
| automations:run | abort a running automation; sensitive |
| integrations:read | installation status without provider secrets; sensitive |
| credentials:read, credentials:write | list, create, rotate, revoke personal-access credentials |
| service-accounts:read, :write | manage service-account principals and their reveal-once credentials |
| resource-grants:read, :write | read or atomically replace a service account's bounded resource grants |
| changes:read | durable cursor-based change feed for authorized resource types |
| events:read | authorization-filtered event and channel catalog |
| webhooks:read, webhooks:write | signed webhook registrations; read also covers delivery history owned by this exact credential |
| audit:read | developer-platform audit events |
`;
