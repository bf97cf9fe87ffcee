import { createRequire as __agateCreateRequire } from 'node:module';
const require = __agateCreateRequire(import.meta.url);
import {
  AGATE_VERSION
} from "./chunk-IB6QXWIS.js";
import {
  CHANGED_PATHS_LIMIT,
  FILE_COMMANDS,
  OUTPUT_TAIL_BYTES,
  RECORD_FILE_NAME,
  RecordUploadError,
  codeSpan,
  commandEnvironment,
  commandRecordSchema,
  counted,
  displayTail,
  durationText,
  gitShaSchema,
  githubLoginSchema,
  loadArtifactClient,
  normaliseLine,
  normaliseOutput,
  outcomeText,
  outputDetails,
  positiveIntSchema,
  progressThresholdsSchema,
  repositoryFullNameSchema,
  runnerInfo,
  shortSha,
  tableCell,
  uploadRecord,
  workflowRun
} from "./chunk-ABGFYM4F.js";
import {
  external_exports
} from "./chunk-3CVLB5M4.js";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunk-FBXJFVTN.js";

// node_modules/yaml/dist/nodes/identity.js
var require_identity = __commonJS({
  "node_modules/yaml/dist/nodes/identity.js"(exports) {
    "use strict";
    var ALIAS = /* @__PURE__ */ Symbol.for("yaml.alias");
    var DOC = /* @__PURE__ */ Symbol.for("yaml.document");
    var MAP = /* @__PURE__ */ Symbol.for("yaml.map");
    var PAIR = /* @__PURE__ */ Symbol.for("yaml.pair");
    var SCALAR = /* @__PURE__ */ Symbol.for("yaml.scalar");
    var SEQ = /* @__PURE__ */ Symbol.for("yaml.seq");
    var NODE_TYPE = /* @__PURE__ */ Symbol.for("yaml.node.type");
    var isAlias = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === ALIAS;
    var isDocument = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === DOC;
    var isMap3 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === MAP;
    var isPair3 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === PAIR;
    var isScalar3 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SCALAR;
    var isSeq = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SEQ;
    function isCollection(node) {
      if (node && typeof node === "object")
        switch (node[NODE_TYPE]) {
          case MAP:
          case SEQ:
            return true;
        }
      return false;
    }
    function isNode2(node) {
      if (node && typeof node === "object")
        switch (node[NODE_TYPE]) {
          case ALIAS:
          case MAP:
          case SCALAR:
          case SEQ:
            return true;
        }
      return false;
    }
    var hasAnchor = (node) => (isScalar3(node) || isCollection(node)) && !!node.anchor;
    exports.ALIAS = ALIAS;
    exports.DOC = DOC;
    exports.MAP = MAP;
    exports.NODE_TYPE = NODE_TYPE;
    exports.PAIR = PAIR;
    exports.SCALAR = SCALAR;
    exports.SEQ = SEQ;
    exports.hasAnchor = hasAnchor;
    exports.isAlias = isAlias;
    exports.isCollection = isCollection;
    exports.isDocument = isDocument;
    exports.isMap = isMap3;
    exports.isNode = isNode2;
    exports.isPair = isPair3;
    exports.isScalar = isScalar3;
    exports.isSeq = isSeq;
  }
});

// node_modules/yaml/dist/visit.js
var require_visit = __commonJS({
  "node_modules/yaml/dist/visit.js"(exports) {
    "use strict";
    var identity = require_identity();
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove node");
    function visit(node, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node)) {
        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
          node.contents = null;
      } else
        visit_(null, node, visitor_, Object.freeze([]));
    }
    visit.BREAK = BREAK;
    visit.SKIP = SKIP;
    visit.REMOVE = REMOVE;
    function visit_(key, node, visitor, path) {
      const ctrl = callVisitor(key, node, visitor, path);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visit_(key, ctrl, visitor, path);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node)) {
          path = Object.freeze(path.concat(node));
          for (let i = 0; i < node.items.length; ++i) {
            const ci = visit_(i, node.items[i], visitor, path);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node)) {
          path = Object.freeze(path.concat(node));
          const ck = visit_("key", node.key, visitor, path);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node.key = null;
          const cv = visit_("value", node.value, visitor, path);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node.value = null;
        }
      }
      return ctrl;
    }
    async function visitAsync(node, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node)) {
        const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
          node.contents = null;
      } else
        await visitAsync_(null, node, visitor_, Object.freeze([]));
    }
    visitAsync.BREAK = BREAK;
    visitAsync.SKIP = SKIP;
    visitAsync.REMOVE = REMOVE;
    async function visitAsync_(key, node, visitor, path) {
      const ctrl = await callVisitor(key, node, visitor, path);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path, ctrl);
        return visitAsync_(key, ctrl, visitor, path);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node)) {
          path = Object.freeze(path.concat(node));
          for (let i = 0; i < node.items.length; ++i) {
            const ci = await visitAsync_(i, node.items[i], visitor, path);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node)) {
          path = Object.freeze(path.concat(node));
          const ck = await visitAsync_("key", node.key, visitor, path);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node.key = null;
          const cv = await visitAsync_("value", node.value, visitor, path);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node.value = null;
        }
      }
      return ctrl;
    }
    function initVisitor(visitor) {
      if (typeof visitor === "object" && (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
          Alias: visitor.Node,
          Map: visitor.Node,
          Scalar: visitor.Node,
          Seq: visitor.Node
        }, visitor.Value && {
          Map: visitor.Value,
          Scalar: visitor.Value,
          Seq: visitor.Value
        }, visitor.Collection && {
          Map: visitor.Collection,
          Seq: visitor.Collection
        }, visitor);
      }
      return visitor;
    }
    function callVisitor(key, node, visitor, path) {
      if (typeof visitor === "function")
        return visitor(key, node, path);
      if (identity.isMap(node))
        return visitor.Map?.(key, node, path);
      if (identity.isSeq(node))
        return visitor.Seq?.(key, node, path);
      if (identity.isPair(node))
        return visitor.Pair?.(key, node, path);
      if (identity.isScalar(node))
        return visitor.Scalar?.(key, node, path);
      if (identity.isAlias(node))
        return visitor.Alias?.(key, node, path);
      return void 0;
    }
    function replaceNode(key, path, node) {
      const parent = path[path.length - 1];
      if (identity.isCollection(parent)) {
        parent.items[key] = node;
      } else if (identity.isPair(parent)) {
        if (key === "key")
          parent.key = node;
        else
          parent.value = node;
      } else if (identity.isDocument(parent)) {
        parent.contents = node;
      } else {
        const pt = identity.isAlias(parent) ? "alias" : "scalar";
        throw new Error(`Cannot replace node with ${pt} parent`);
      }
    }
    exports.visit = visit;
    exports.visitAsync = visitAsync;
  }
});

// node_modules/yaml/dist/doc/directives.js
var require_directives = __commonJS({
  "node_modules/yaml/dist/doc/directives.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit = require_visit();
    var escapeChars = {
      "!": "%21",
      ",": "%2C",
      "[": "%5B",
      "]": "%5D",
      "{": "%7B",
      "}": "%7D"
    };
    var escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, (ch) => escapeChars[ch]);
    var Directives = class _Directives {
      constructor(yaml, tags) {
        this.docStart = null;
        this.docEnd = false;
        this.yaml = Object.assign({}, _Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, _Directives.defaultTags, tags);
      }
      clone() {
        const copy = new _Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
      }
      /**
       * During parsing, get a Directives instance for the current document and
       * update the stream state according to the current version's spec.
       */
      atDocument() {
        const res = new _Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
          case "1.1":
            this.atNextDocument = true;
            break;
          case "1.2":
            this.atNextDocument = false;
            this.yaml = {
              explicit: _Directives.defaultYaml.explicit,
              version: "1.2"
            };
            this.tags = Object.assign({}, _Directives.defaultTags);
            break;
        }
        return res;
      }
      /**
       * @param onError - May be called even if the action was successful
       * @returns `true` on success
       */
      add(line, onError) {
        if (this.atNextDocument) {
          this.yaml = { explicit: _Directives.defaultYaml.explicit, version: "1.1" };
          this.tags = Object.assign({}, _Directives.defaultTags);
          this.atNextDocument = false;
        }
        const parts = line.trim().split(/[ \t]+/);
        const name = parts.shift();
        switch (name) {
          case "%TAG": {
            if (parts.length !== 2) {
              onError(0, "%TAG directive should contain exactly two parts");
              if (parts.length < 2)
                return false;
            }
            const [handle, prefix] = parts;
            this.tags[handle] = prefix;
            return true;
          }
          case "%YAML": {
            this.yaml.explicit = true;
            if (parts.length !== 1) {
              onError(0, "%YAML directive should contain exactly one part");
              return false;
            }
            const [version] = parts;
            if (version === "1.1" || version === "1.2") {
              this.yaml.version = version;
              return true;
            } else {
              const isValid = /^\d+\.\d+$/.test(version);
              onError(6, `Unsupported YAML version ${version}`, isValid);
              return false;
            }
          }
          default:
            onError(0, `Unknown directive ${name}`, true);
            return false;
        }
      }
      /**
       * Resolves a tag, matching handles to those defined in %TAG directives.
       *
       * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
       *   `'!local'` tag, or `null` if unresolvable.
       */
      tagName(source, onError) {
        if (source === "!")
          return "!";
        if (source[0] !== "!") {
          onError(`Not a valid tag: ${source}`);
          return null;
        }
        if (source[1] === "<") {
          const verbatim = source.slice(2, -1);
          if (verbatim === "!" || verbatim === "!!") {
            onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
            return null;
          }
          if (source[source.length - 1] !== ">")
            onError("Verbatim tags must end with a >");
          return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
          onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
          try {
            return prefix + decodeURIComponent(suffix);
          } catch (error2) {
            onError(String(error2));
            return null;
          }
        }
        if (handle === "!")
          return source;
        onError(`Could not resolve tag: ${source}`);
        return null;
      }
      /**
       * Given a fully resolved tag, returns its printable string form,
       * taking into account current tag prefixes and defaults.
       */
      tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
          if (tag.startsWith(prefix))
            return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === "!" ? tag : `!<${tag}>`;
      }
      toString(doc) {
        const lines = this.yaml.explicit ? [`%YAML ${this.yaml.version || "1.2"}`] : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
          const tags = {};
          visit.visit(doc.contents, (_key, node) => {
            if (identity.isNode(node) && node.tag)
              tags[node.tag] = true;
          });
          tagNames = Object.keys(tags);
        } else
          tagNames = [];
        for (const [handle, prefix] of tagEntries) {
          if (handle === "!!" && prefix === "tag:yaml.org,2002:")
            continue;
          if (!doc || tagNames.some((tn) => tn.startsWith(prefix)))
            lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join("\n");
      }
    };
    Directives.defaultYaml = { explicit: false, version: "1.2" };
    Directives.defaultTags = { "!!": "tag:yaml.org,2002:" };
    exports.Directives = Directives;
  }
});

// node_modules/yaml/dist/doc/anchors.js
var require_anchors = __commonJS({
  "node_modules/yaml/dist/doc/anchors.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit = require_visit();
    function anchorIsValid(anchor) {
      if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
        const sa = JSON.stringify(anchor);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
      }
      return true;
    }
    function anchorNames(root2) {
      const anchors = /* @__PURE__ */ new Set();
      visit.visit(root2, {
        Value(_key, node) {
          if (node.anchor)
            anchors.add(node.anchor);
        }
      });
      return anchors;
    }
    function findNewAnchor(prefix, exclude) {
      for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
          return name;
      }
    }
    function createNodeAnchors(doc, prefix) {
      const aliasObjects = [];
      const sourceObjects = /* @__PURE__ */ new Map();
      let prevAnchors = null;
      return {
        onAnchor: (source) => {
          aliasObjects.push(source);
          prevAnchors ?? (prevAnchors = anchorNames(doc));
          const anchor = findNewAnchor(prefix, prevAnchors);
          prevAnchors.add(anchor);
          return anchor;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
          for (const source of aliasObjects) {
            const ref = sourceObjects.get(source);
            if (typeof ref === "object" && ref.anchor && (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
              ref.node.anchor = ref.anchor;
            } else {
              const error2 = new Error("Failed to resolve repeated object (this should not happen)");
              error2.source = source;
              throw error2;
            }
          }
        },
        sourceObjects
      };
    }
    exports.anchorIsValid = anchorIsValid;
    exports.anchorNames = anchorNames;
    exports.createNodeAnchors = createNodeAnchors;
    exports.findNewAnchor = findNewAnchor;
  }
});

// node_modules/yaml/dist/doc/applyReviver.js
var require_applyReviver = __commonJS({
  "node_modules/yaml/dist/doc/applyReviver.js"(exports) {
    "use strict";
    function applyReviver(reviver, obj, key, val) {
      if (val && typeof val === "object") {
        if (Array.isArray(val)) {
          for (let i = 0, len = val.length; i < len; ++i) {
            const v0 = val[i];
            const v1 = applyReviver(reviver, val, String(i), v0);
            if (v1 === void 0)
              delete val[i];
            else if (v1 !== v0)
              val[i] = v1;
          }
        } else if (val instanceof Map) {
          for (const k of Array.from(val.keys())) {
            const v0 = val.get(k);
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              val.delete(k);
            else if (v1 !== v0)
              val.set(k, v1);
          }
        } else if (val instanceof Set) {
          for (const v0 of Array.from(val)) {
            const v1 = applyReviver(reviver, val, v0, v0);
            if (v1 === void 0)
              val.delete(v0);
            else if (v1 !== v0) {
              val.delete(v0);
              val.add(v1);
            }
          }
        } else {
          for (const [k, v0] of Object.entries(val)) {
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              delete val[k];
            else if (v1 !== v0)
              val[k] = v1;
          }
        }
      }
      return reviver.call(obj, key, val);
    }
    exports.applyReviver = applyReviver;
  }
});

// node_modules/yaml/dist/nodes/toJS.js
var require_toJS = __commonJS({
  "node_modules/yaml/dist/nodes/toJS.js"(exports) {
    "use strict";
    var identity = require_identity();
    function toJS(value, arg, ctx) {
      if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
      if (value && typeof value.toJSON === "function") {
        if (!ctx || !identity.hasAnchor(value))
          return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: void 0 };
        ctx.anchors.set(value, data);
        ctx.onCreate = (res2) => {
          data.res = res2;
          delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
          ctx.onCreate(res);
        return res;
      }
      if (typeof value === "bigint" && !ctx?.keep)
        return Number(value);
      return value;
    }
    exports.toJS = toJS;
  }
});

// node_modules/yaml/dist/nodes/Node.js
var require_Node = __commonJS({
  "node_modules/yaml/dist/nodes/Node.js"(exports) {
    "use strict";
    var applyReviver = require_applyReviver();
    var identity = require_identity();
    var toJS = require_toJS();
    var NodeBase = class {
      constructor(type) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
      }
      /** Create a copy of this node.  */
      clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** A plain JavaScript representation of this node. */
      toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!identity.isDocument(doc))
          throw new TypeError("A document argument is required");
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc,
          keep: true,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this, "", ctx);
        if (typeof onAnchor === "function")
          for (const { count, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
    };
    exports.NodeBase = NodeBase;
  }
});

// node_modules/yaml/dist/nodes/Alias.js
var require_Alias = __commonJS({
  "node_modules/yaml/dist/nodes/Alias.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var visit = require_visit();
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var Alias = class extends Node.NodeBase {
      constructor(source) {
        super(identity.ALIAS);
        this.source = source;
        Object.defineProperty(this, "tag", {
          set() {
            throw new Error("Alias nodes cannot have tags");
          }
        });
      }
      /**
       * Resolve the value of this alias within `doc`, finding the last
       * instance of the `source` anchor before this node.
       */
      resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
          throw new ReferenceError("Alias resolution is disabled");
        let nodes;
        if (ctx?.aliasResolveCache) {
          nodes = ctx.aliasResolveCache;
        } else {
          nodes = [];
          visit.visit(doc, {
            Node: (_key, node) => {
              if (identity.isAlias(node) || identity.hasAnchor(node))
                nodes.push(node);
            }
          });
          if (ctx)
            ctx.aliasResolveCache = nodes;
        }
        let found2 = void 0;
        for (const node of nodes) {
          if (node === this)
            break;
          if (node.anchor === this.source)
            found2 = node;
        }
        if (found2 && ctx) {
          const { anchors: anchors2, doc: doc2, maxAliasCount } = ctx;
          let data = anchors2.get(found2);
          if (!data) {
            toJS.toJS(found2, null, ctx);
            data = anchors2.get(found2);
          }
          if (data?.res === void 0) {
            const msg = "This should not happen: Alias anchor was not resolved?";
            throw new ReferenceError(msg);
          }
          if (maxAliasCount >= 0) {
            data.count += 1;
            if (data.aliasCount === 0)
              data.aliasCount = getAliasCount(doc2, found2, anchors2);
            if (data.count * data.aliasCount > maxAliasCount) {
              const msg = "Excessive alias count indicates a resource exhaustion attack";
              throw new ReferenceError(msg);
            }
          }
        }
        return found2;
      }
      toJSON(_arg, ctx) {
        if (!ctx)
          return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
          const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
          throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
      }
      toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
          anchors.anchorIsValid(this.source);
          if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new Error(msg);
          }
          if (ctx.implicitKey)
            return `${src} `;
        }
        return src;
      }
    };
    function getAliasCount(doc, node, anchors2) {
      if (identity.isAlias(node)) {
        const source = node.resolve(doc);
        const anchor = anchors2 && source && anchors2.get(source);
        return anchor ? anchor.count * anchor.aliasCount : 0;
      } else if (identity.isCollection(node)) {
        let count = 0;
        for (const item of node.items) {
          const c = getAliasCount(doc, item, anchors2);
          if (c > count)
            count = c;
        }
        return count;
      } else if (identity.isPair(node)) {
        const kc = getAliasCount(doc, node.key, anchors2);
        const vc = getAliasCount(doc, node.value, anchors2);
        return Math.max(kc, vc);
      }
      return 1;
    }
    exports.Alias = Alias;
  }
});

// node_modules/yaml/dist/nodes/Scalar.js
var require_Scalar = __commonJS({
  "node_modules/yaml/dist/nodes/Scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var isScalarValue = (value) => !value || typeof value !== "function" && typeof value !== "object";
    var Scalar = class extends Node.NodeBase {
      constructor(value) {
        super(identity.SCALAR);
        this.value = value;
      }
      toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
      }
      toString() {
        return String(this.value);
      }
    };
    Scalar.BLOCK_FOLDED = "BLOCK_FOLDED";
    Scalar.BLOCK_LITERAL = "BLOCK_LITERAL";
    Scalar.PLAIN = "PLAIN";
    Scalar.QUOTE_DOUBLE = "QUOTE_DOUBLE";
    Scalar.QUOTE_SINGLE = "QUOTE_SINGLE";
    exports.Scalar = Scalar;
    exports.isScalarValue = isScalarValue;
  }
});

// node_modules/yaml/dist/doc/createNode.js
var require_createNode = __commonJS({
  "node_modules/yaml/dist/doc/createNode.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var defaultTagPrefix = "tag:yaml.org,2002:";
    function findTagObject(value, tagName, tags) {
      if (tagName) {
        const match = tags.filter((t) => t.tag === tagName);
        const tagObj = match.find((t) => !t.format) ?? match[0];
        if (!tagObj)
          throw new Error(`Tag ${tagName} not found`);
        return tagObj;
      }
      return tags.find((t) => t.identify?.(value) && !t.format);
    }
    function createNode(value, tagName, ctx) {
      if (identity.isDocument(value))
        value = value.contents;
      if (identity.isNode(value))
        return value;
      if (identity.isPair(value)) {
        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
      }
      if (value instanceof String || value instanceof Number || value instanceof Boolean || typeof BigInt !== "undefined" && value instanceof BigInt) {
        value = value.valueOf();
      }
      const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
      let ref = void 0;
      if (aliasDuplicateObjects && value && typeof value === "object") {
        ref = sourceObjects.get(value);
        if (ref) {
          ref.anchor ?? (ref.anchor = onAnchor(value));
          return new Alias.Alias(ref.anchor);
        } else {
          ref = { anchor: null, node: null };
          sourceObjects.set(value, ref);
        }
      }
      if (tagName?.startsWith("!!"))
        tagName = defaultTagPrefix + tagName.slice(2);
      let tagObj = findTagObject(value, tagName, schema.tags);
      if (!tagObj) {
        if (value && typeof value.toJSON === "function") {
          value = value.toJSON();
        }
        if (!value || typeof value !== "object") {
          const node2 = new Scalar.Scalar(value);
          if (ref)
            ref.node = node2;
          return node2;
        }
        tagObj = value instanceof Map ? schema[identity.MAP] : Symbol.iterator in Object(value) ? schema[identity.SEQ] : schema[identity.MAP];
      }
      if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
      }
      const node = tagObj?.createNode ? tagObj.createNode(ctx.schema, value, ctx) : typeof tagObj?.nodeClass?.from === "function" ? tagObj.nodeClass.from(ctx.schema, value, ctx) : new Scalar.Scalar(value);
      if (tagName)
        node.tag = tagName;
      else if (!tagObj.default)
        node.tag = tagObj.tag;
      if (ref)
        ref.node = node;
      return node;
    }
    exports.createNode = createNode;
  }
});

// node_modules/yaml/dist/nodes/Collection.js
var require_Collection = __commonJS({
  "node_modules/yaml/dist/nodes/Collection.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var identity = require_identity();
    var Node = require_Node();
    function collectionFromPath(schema, path, value) {
      let v = value;
      for (let i = path.length - 1; i >= 0; --i) {
        const k = path[i];
        if (typeof k === "number" && Number.isInteger(k) && k >= 0) {
          const a = [];
          a[k] = v;
          v = a;
        } else {
          v = /* @__PURE__ */ new Map([[k, v]]);
        }
      }
      return createNode.createNode(v, void 0, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
          throw new Error("This should not happen, please report a bug.");
        },
        schema,
        sourceObjects: /* @__PURE__ */ new Map()
      });
    }
    var isEmptyPath = (path) => path == null || typeof path === "object" && !!path[Symbol.iterator]().next().done;
    var Collection = class extends Node.NodeBase {
      constructor(type, schema) {
        super(type);
        Object.defineProperty(this, "schema", {
          value: schema,
          configurable: true,
          enumerable: false,
          writable: true
        });
      }
      /**
       * Create a copy of this collection.
       *
       * @param schema - If defined, overwrites the original's schema
       */
      clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
          copy.schema = schema;
        copy.items = copy.items.map((it) => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /**
       * Adds a value to the collection. For `!!map` and `!!omap` the value must
       * be a Pair instance or a `{ key, value }` object, which may not have a key
       * that already exists in the map.
       */
      addIn(path, value) {
        if (isEmptyPath(path))
          this.add(value);
        else {
          const [key, ...rest] = path;
          const node = this.get(key, true);
          if (identity.isCollection(node))
            node.addIn(rest, value);
          else if (node === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
      /**
       * Removes a value from the collection.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
          return this.delete(key);
        const node = this.get(key, true);
        if (identity.isCollection(node))
          return node.deleteIn(rest);
        else
          throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path, keepScalar) {
        const [key, ...rest] = path;
        const node = this.get(key, true);
        if (rest.length === 0)
          return !keepScalar && identity.isScalar(node) ? node.value : node;
        else
          return identity.isCollection(node) ? node.getIn(rest, keepScalar) : void 0;
      }
      hasAllNullValues(allowScalar) {
        return this.items.every((node) => {
          if (!identity.isPair(node))
            return false;
          const n = node.value;
          return n == null || allowScalar && identity.isScalar(n) && n.value == null && !n.commentBefore && !n.comment && !n.tag;
        });
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       */
      hasIn(path) {
        const [key, ...rest] = path;
        if (rest.length === 0)
          return this.has(key);
        const node = this.get(key, true);
        return identity.isCollection(node) ? node.hasIn(rest) : false;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path, value) {
        const [key, ...rest] = path;
        if (rest.length === 0) {
          this.set(key, value);
        } else {
          const node = this.get(key, true);
          if (identity.isCollection(node))
            node.setIn(rest, value);
          else if (node === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
    };
    exports.Collection = Collection;
    exports.collectionFromPath = collectionFromPath;
    exports.isEmptyPath = isEmptyPath;
  }
});

// node_modules/yaml/dist/stringify/stringifyComment.js
var require_stringifyComment = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyComment.js"(exports) {
    "use strict";
    var stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, "#");
    function indentComment(comment, indent) {
      if (/^\n+$/.test(comment))
        return comment.substring(1);
      return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
    }
    var lineComment = (str, indent, comment) => str.endsWith("\n") ? indentComment(comment, indent) : comment.includes("\n") ? "\n" + indentComment(comment, indent) : (str.endsWith(" ") ? "" : " ") + comment;
    exports.indentComment = indentComment;
    exports.lineComment = lineComment;
    exports.stringifyComment = stringifyComment;
  }
});

// node_modules/yaml/dist/stringify/foldFlowLines.js
var require_foldFlowLines = __commonJS({
  "node_modules/yaml/dist/stringify/foldFlowLines.js"(exports) {
    "use strict";
    var FOLD_FLOW = "flow";
    var FOLD_BLOCK = "block";
    var FOLD_QUOTED = "quoted";
    function foldFlowLines(text, indent, mode = "flow", { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
      if (!lineWidth || lineWidth < 0)
        return text;
      if (lineWidth < minContentWidth)
        minContentWidth = 0;
      const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
      if (text.length <= endStep)
        return text;
      const folds = [];
      const escapedFolds = {};
      let end = lineWidth - indent.length;
      if (typeof indentAtStart === "number") {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
          folds.push(0);
        else
          end = lineWidth - indentAtStart;
      }
      let split = void 0;
      let prev = void 0;
      let overflow = false;
      let i = -1;
      let escStart = -1;
      let escEnd = -1;
      if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
          end = i + endStep;
      }
      for (let ch; ch = text[i += 1]; ) {
        if (mode === FOLD_QUOTED && ch === "\\") {
          escStart = i;
          switch (text[i + 1]) {
            case "x":
              i += 3;
              break;
            case "u":
              i += 5;
              break;
            case "U":
              i += 9;
              break;
            default:
              i += 1;
          }
          escEnd = i;
        }
        if (ch === "\n") {
          if (mode === FOLD_BLOCK)
            i = consumeMoreIndentedLines(text, i, indent.length);
          end = i + indent.length + endStep;
          split = void 0;
        } else {
          if (ch === " " && prev && prev !== " " && prev !== "\n" && prev !== "	") {
            const next = text[i + 1];
            if (next && next !== " " && next !== "\n" && next !== "	")
              split = i;
          }
          if (i >= end) {
            if (split) {
              folds.push(split);
              end = split + endStep;
              split = void 0;
            } else if (mode === FOLD_QUOTED) {
              while (prev === " " || prev === "	") {
                prev = ch;
                ch = text[i += 1];
                overflow = true;
              }
              const j = i > escEnd + 1 ? i - 2 : escStart - 1;
              if (escapedFolds[j])
                return text;
              folds.push(j);
              escapedFolds[j] = true;
              end = j + endStep;
              split = void 0;
            } else {
              overflow = true;
            }
          }
        }
        prev = ch;
      }
      if (overflow && onOverflow)
        onOverflow();
      if (folds.length === 0)
        return text;
      if (onFold)
        onFold();
      let res = text.slice(0, folds[0]);
      for (let i2 = 0; i2 < folds.length; ++i2) {
        const fold = folds[i2];
        const end2 = folds[i2 + 1] || text.length;
        if (fold === 0)
          res = `
${indent}${text.slice(0, end2)}`;
        else {
          if (mode === FOLD_QUOTED && escapedFolds[fold])
            res += `${text[fold]}\\`;
          res += `
${indent}${text.slice(fold + 1, end2)}`;
        }
      }
      return res;
    }
    function consumeMoreIndentedLines(text, i, indent) {
      let end = i;
      let start = i + 1;
      let ch = text[start];
      while (ch === " " || ch === "	") {
        if (i < start + indent) {
          ch = text[++i];
        } else {
          do {
            ch = text[++i];
          } while (ch && ch !== "\n");
          end = i;
          start = i + 1;
          ch = text[start];
        }
      }
      return end;
    }
    exports.FOLD_BLOCK = FOLD_BLOCK;
    exports.FOLD_FLOW = FOLD_FLOW;
    exports.FOLD_QUOTED = FOLD_QUOTED;
    exports.foldFlowLines = foldFlowLines;
  }
});

// node_modules/yaml/dist/stringify/stringifyString.js
var require_stringifyString = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyString.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var foldFlowLines = require_foldFlowLines();
    var getFoldOptions = (ctx, isBlock) => ({
      indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
      lineWidth: ctx.options.lineWidth,
      minContentWidth: ctx.options.minContentWidth
    });
    var containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
    function lineLengthOverLimit(str, lineWidth, indentLength) {
      if (!lineWidth || lineWidth < 0)
        return false;
      const limit = lineWidth - indentLength;
      const strLen = str.length;
      if (strLen <= limit)
        return false;
      for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === "\n") {
          if (i - start > limit)
            return true;
          start = i + 1;
          if (strLen - start <= limit)
            return false;
        }
      }
      return true;
    }
    function doubleQuotedString(value, ctx) {
      const json = JSON.stringify(value);
      if (ctx.options.doubleQuotedAsJSON)
        return json;
      const { implicitKey } = ctx;
      const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      let str = "";
      let start = 0;
      for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === " " && json[i + 1] === "\\" && json[i + 2] === "n") {
          str += json.slice(start, i) + "\\ ";
          i += 1;
          start = i;
          ch = "\\";
        }
        if (ch === "\\")
          switch (json[i + 1]) {
            case "u":
              {
                str += json.slice(start, i);
                const code = json.substr(i + 2, 4);
                switch (code) {
                  case "0000":
                    str += "\\0";
                    break;
                  case "0007":
                    str += "\\a";
                    break;
                  case "000b":
                    str += "\\v";
                    break;
                  case "001b":
                    str += "\\e";
                    break;
                  case "0085":
                    str += "\\N";
                    break;
                  case "00a0":
                    str += "\\_";
                    break;
                  case "2028":
                    str += "\\L";
                    break;
                  case "2029":
                    str += "\\P";
                    break;
                  default:
                    if (code.substr(0, 2) === "00")
                      str += "\\x" + code.substr(2);
                    else
                      str += json.substr(i, 6);
                }
                i += 5;
                start = i + 1;
              }
              break;
            case "n":
              if (implicitKey || json[i + 2] === '"' || json.length < minMultiLineLength) {
                i += 1;
              } else {
                str += json.slice(start, i) + "\n\n";
                while (json[i + 2] === "\\" && json[i + 3] === "n" && json[i + 4] !== '"') {
                  str += "\n";
                  i += 2;
                }
                str += indent;
                if (json[i + 2] === " ")
                  str += "\\";
                i += 1;
                start = i + 1;
              }
              break;
            default:
              i += 1;
          }
      }
      str = start ? str + json.slice(start) : json;
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
    }
    function singleQuotedString(value, ctx) {
      if (ctx.options.singleQuote === false || ctx.implicitKey && value.includes("\n") || /[ \t]\n|\n[ \t]/.test(value))
        return doubleQuotedString(value, ctx);
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&
${indent}`) + "'";
      return ctx.implicitKey ? res : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function quotedString(value, ctx) {
      const { singleQuote } = ctx.options;
      let qs;
      if (singleQuote === false)
        qs = doubleQuotedString;
      else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
          qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
          qs = doubleQuotedString;
        else
          qs = singleQuote ? singleQuotedString : doubleQuotedString;
      }
      return qs(value, ctx);
    }
    var blockEndNewlines;
    try {
      blockEndNewlines = new RegExp("(^|(?<!\n))\n+(?!\n|$)", "g");
    } catch {
      blockEndNewlines = /\n+(?!\n|$)/g;
    }
    function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
      const { blockQuote, commentString, lineWidth } = ctx.options;
      if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
      }
      const indent = ctx.indent || (ctx.forceBlockIndent || containsDocumentMarker(value) ? "  " : "");
      const literal = blockQuote === "literal" ? true : blockQuote === "folded" || type === Scalar.Scalar.BLOCK_FOLDED ? false : type === Scalar.Scalar.BLOCK_LITERAL ? true : !lineLengthOverLimit(value, lineWidth, indent.length);
      if (!value)
        return literal ? "|\n" : ">\n";
      let chomp;
      let endStart;
      for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== "\n" && ch !== "	" && ch !== " ")
          break;
      }
      let end = value.substring(endStart);
      const endNlPos = end.indexOf("\n");
      if (endNlPos === -1) {
        chomp = "-";
      } else if (value === end || endNlPos !== end.length - 1) {
        chomp = "+";
        if (onChompKeep)
          onChompKeep();
      } else {
        chomp = "";
      }
      if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === "\n")
          end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
      }
      let startWithSpace = false;
      let startEnd;
      let startNlPos = -1;
      for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === " ")
          startWithSpace = true;
        else if (ch === "\n")
          startNlPos = startEnd;
        else
          break;
      }
      let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
      if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
      }
      const indentSize = indent ? "2" : "1";
      let header = (startWithSpace ? indentSize : "") + chomp;
      if (comment) {
        header += " " + commentString(comment.replace(/ ?[\r\n]+/g, " "));
        if (onComment)
          onComment();
      }
      if (!literal) {
        const foldedValue = value.replace(/\n+/g, "\n$&").replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, "$1$2").replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== "folded" && type !== Scalar.Scalar.BLOCK_FOLDED) {
          foldOptions.onOverflow = () => {
            literalFallback = true;
          };
        }
        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
        if (!literalFallback)
          return `>${header}
${indent}${body}`;
      }
      value = value.replace(/\n+/g, `$&${indent}`);
      return `|${header}
${indent}${start}${value}${end}`;
    }
    function plainString(item, ctx, onComment, onChompKeep) {
      const { type, value } = item;
      const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
      if (implicitKey && value.includes("\n") || inFlow && /[[\]{},]/.test(value)) {
        return quotedString(value, ctx);
      }
      if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        return implicitKey || inFlow || !value.includes("\n") ? quotedString(value, ctx) : blockString(item, ctx, onComment, onChompKeep);
      }
      if (!implicitKey && !inFlow && type !== Scalar.Scalar.PLAIN && value.includes("\n")) {
        return blockString(item, ctx, onComment, onChompKeep);
      }
      if (containsDocumentMarker(value)) {
        if (indent === "") {
          ctx.forceBlockIndent = true;
          return blockString(item, ctx, onComment, onChompKeep);
        } else if (implicitKey && indent === indentStep) {
          return quotedString(value, ctx);
        }
      }
      const str = value.replace(/\n+/g, `$&
${indent}`);
      if (actualString) {
        const test = (tag) => tag.default && tag.tag !== "tag:yaml.org,2002:str" && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
          return quotedString(value, ctx);
      }
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function stringifyString(item, ctx, onComment, onChompKeep) {
      const { implicitKey, inFlow } = ctx;
      const ss = typeof item.value === "string" ? item : Object.assign({}, item, { value: String(item.value) });
      let { type } = item;
      if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
          type = Scalar.Scalar.QUOTE_DOUBLE;
      }
      const _stringify = (_type) => {
        switch (_type) {
          case Scalar.Scalar.BLOCK_FOLDED:
          case Scalar.Scalar.BLOCK_LITERAL:
            return implicitKey || inFlow ? quotedString(ss.value, ctx) : blockString(ss, ctx, onComment, onChompKeep);
          case Scalar.Scalar.QUOTE_DOUBLE:
            return doubleQuotedString(ss.value, ctx);
          case Scalar.Scalar.QUOTE_SINGLE:
            return singleQuotedString(ss.value, ctx);
          case Scalar.Scalar.PLAIN:
            return plainString(ss, ctx, onComment, onChompKeep);
          default:
            return null;
        }
      };
      let res = _stringify(type);
      if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = implicitKey && defaultKeyType || defaultStringType;
        res = _stringify(t);
        if (res === null)
          throw new Error(`Unsupported default string type ${t}`);
      }
      return res;
    }
    exports.stringifyString = stringifyString;
  }
});

// node_modules/yaml/dist/stringify/stringify.js
var require_stringify = __commonJS({
  "node_modules/yaml/dist/stringify/stringify.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var identity = require_identity();
    var stringifyComment = require_stringifyComment();
    var stringifyString = require_stringifyString();
    function createStringifyContext(doc, options) {
      const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment.stringifyComment,
        defaultKeyType: null,
        defaultStringType: "PLAIN",
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: "false",
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: "null",
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: "true",
        verifyAliasOrder: true
      }, doc.schema.toStringOptions, options);
      let inFlow;
      switch (opt.collectionStyle) {
        case "block":
          inFlow = false;
          break;
        case "flow":
          inFlow = true;
          break;
        default:
          inFlow = null;
      }
      return {
        anchors: /* @__PURE__ */ new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? " " : "",
        indent: "",
        indentStep: typeof opt.indent === "number" ? " ".repeat(opt.indent) : "  ",
        inFlow,
        options: opt
      };
    }
    function getTagObject(tags, item) {
      if (item.tag) {
        const match = tags.filter((t) => t.tag === item.tag);
        if (match.length > 0)
          return match.find((t) => t.format === item.format) ?? match[0];
      }
      let tagObj = void 0;
      let obj;
      if (identity.isScalar(item)) {
        obj = item.value;
        let match = tags.filter((t) => t.identify?.(obj));
        if (match.length > 1) {
          const testMatch = match.filter((t) => t.test);
          if (testMatch.length > 0)
            match = testMatch;
        }
        tagObj = match.find((t) => t.format === item.format) ?? match.find((t) => !t.format);
      } else {
        obj = item;
        tagObj = tags.find((t) => t.nodeClass && obj instanceof t.nodeClass);
      }
      if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? "null" : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
      }
      return tagObj;
    }
    function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
      if (!doc.directives)
        return "";
      const props = [];
      const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
      if (anchor && anchors.anchorIsValid(anchor)) {
        anchors$1.add(anchor);
        props.push(`&${anchor}`);
      }
      const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
      if (tag)
        props.push(doc.directives.tagString(tag));
      return props.join(" ");
    }
    function stringify2(item, ctx, onComment, onChompKeep) {
      if (identity.isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
      if (identity.isAlias(item)) {
        if (ctx.doc.directives)
          return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
          throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        } else {
          if (ctx.resolvedAliases)
            ctx.resolvedAliases.add(item);
          else
            ctx.resolvedAliases = /* @__PURE__ */ new Set([item]);
          item = item.resolve(ctx.doc);
        }
      }
      let tagObj = void 0;
      const node = identity.isNode(item) ? item : ctx.doc.createNode(item, { onTagObj: (o) => tagObj = o });
      tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
      const props = stringifyProps(node, tagObj, ctx);
      if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
      const str = typeof tagObj.stringify === "function" ? tagObj.stringify(node, ctx, onComment, onChompKeep) : identity.isScalar(node) ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep) : node.toString(ctx, onComment, onChompKeep);
      if (!props)
        return str;
      return identity.isScalar(node) || str[0] === "{" || str[0] === "[" ? `${props} ${str}` : `${props}
${ctx.indent}${str}`;
    }
    exports.createStringifyContext = createStringifyContext;
    exports.stringify = stringify2;
  }
});

// node_modules/yaml/dist/stringify/stringifyPair.js
var require_stringifyPair = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyPair.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var stringify2 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
      const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
      let keyComment = identity.isNode(key) && key.comment || null;
      if (simpleKeys) {
        if (keyComment) {
          throw new Error("With simple keys, key nodes cannot have comments");
        }
        if (identity.isCollection(key) || !identity.isNode(key) && typeof key === "object") {
          const msg = "With simple keys, collection cannot be used as a key value";
          throw new Error(msg);
        }
      }
      let explicitKey = !simpleKeys && (!key || keyComment && value == null && !ctx.inFlow || identity.isCollection(key) || (identity.isScalar(key) ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL : typeof key === "object"));
      ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
      });
      let keyCommentDone = false;
      let chompKeep = false;
      let str = stringify2.stringify(key, ctx, () => keyCommentDone = true, () => chompKeep = true);
      if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
          throw new Error("With simple keys, single line scalar must not span more than 1024 characters");
        explicitKey = true;
      }
      if (ctx.inFlow) {
        if (allNullValues || value == null) {
          if (keyCommentDone && onComment)
            onComment();
          return str === "" ? "?" : explicitKey ? `? ${str}` : str;
        }
      } else if (allNullValues && !simpleKeys || value == null && explicitKey) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        } else if (chompKeep && onChompKeep)
          onChompKeep();
        return str;
      }
      if (keyCommentDone)
        keyComment = null;
      if (explicitKey) {
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}
${indent}:`;
      } else {
        str = `${str}:`;
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
      }
      let vsb, vcb, valueComment;
      if (identity.isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
      } else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === "object")
          value = doc.createNode(value);
      }
      ctx.implicitKey = false;
      if (!explicitKey && !keyComment && identity.isScalar(value))
        ctx.indentAtStart = str.length + 1;
      chompKeep = false;
      if (!indentSeq && indentStep.length >= 2 && !ctx.inFlow && !explicitKey && identity.isSeq(value) && !value.flow && !value.tag && !value.anchor) {
        ctx.indent = ctx.indent.substring(2);
      }
      let valueCommentDone = false;
      const valueStr = stringify2.stringify(value, ctx, () => valueCommentDone = true, () => chompKeep = true);
      let ws = " ";
      if (keyComment || vsb || vcb) {
        ws = vsb ? "\n" : "";
        if (vcb) {
          const cs = commentString(vcb);
          ws += `
${stringifyComment.indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === "" && !ctx.inFlow) {
          if (ws === "\n" && valueComment)
            ws = "\n\n";
        } else {
          ws += `
${ctx.indent}`;
        }
      } else if (!explicitKey && identity.isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf("\n");
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
          let hasPropsLine = false;
          if (hasNewline && (vs0 === "&" || vs0 === "!")) {
            let sp0 = valueStr.indexOf(" ");
            if (vs0 === "&" && sp0 !== -1 && sp0 < nl0 && valueStr[sp0 + 1] === "!") {
              sp0 = valueStr.indexOf(" ", sp0 + 1);
            }
            if (sp0 === -1 || nl0 < sp0)
              hasPropsLine = true;
          }
          if (!hasPropsLine)
            ws = `
${ctx.indent}`;
        }
      } else if (valueStr === "" || valueStr[0] === "\n") {
        ws = "";
      }
      str += ws + valueStr;
      if (ctx.inFlow) {
        if (valueCommentDone && onComment)
          onComment();
      } else if (valueComment && !valueCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
      } else if (chompKeep && onChompKeep) {
        onChompKeep();
      }
      return str;
    }
    exports.stringifyPair = stringifyPair;
  }
});

// node_modules/yaml/dist/log.js
var require_log = __commonJS({
  "node_modules/yaml/dist/log.js"(exports) {
    "use strict";
    var node_process = __require("process");
    function debug(logLevel, ...messages) {
      if (logLevel === "debug")
        console.log(...messages);
    }
    function warn(logLevel, warning2) {
      if (logLevel === "debug" || logLevel === "warn") {
        if (typeof node_process.emitWarning === "function")
          node_process.emitWarning(warning2);
        else
          console.warn(warning2);
      }
    }
    exports.debug = debug;
    exports.warn = warn;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/merge.js
var require_merge = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/merge.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var MERGE_KEY = "<<";
    var merge = {
      identify: (value) => value === MERGE_KEY || typeof value === "symbol" && value.description === MERGE_KEY,
      default: "key",
      tag: "tag:yaml.org,2002:merge",
      test: /^<<$/,
      resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
      }),
      stringify: () => MERGE_KEY
    };
    var isMergeKey = (ctx, key) => (merge.identify(key) || identity.isScalar(key) && (!key.type || key.type === Scalar.Scalar.PLAIN) && merge.identify(key.value)) && ctx?.doc.schema.tags.some((tag) => tag.tag === merge.tag && tag.default);
    function addMergeToJSMap(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (identity.isSeq(source))
        for (const it of source.items)
          mergeValue(ctx, map, it);
      else if (Array.isArray(source))
        for (const it of source)
          mergeValue(ctx, map, it);
      else
        mergeValue(ctx, map, source);
    }
    function mergeValue(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (!identity.isMap(source))
        throw new Error("Merge sources must be maps or map aliases");
      const srcMap = source.toJSON(null, ctx, Map);
      for (const [key, value2] of srcMap) {
        if (map instanceof Map) {
          if (!map.has(key))
            map.set(key, value2);
        } else if (map instanceof Set) {
          map.add(key);
        } else if (!Object.prototype.hasOwnProperty.call(map, key)) {
          Object.defineProperty(map, key, {
            value: value2,
            writable: true,
            enumerable: true,
            configurable: true
          });
        }
      }
      return map;
    }
    function resolveAliasValue(ctx, value) {
      return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
    }
    exports.addMergeToJSMap = addMergeToJSMap;
    exports.isMergeKey = isMergeKey;
    exports.merge = merge;
  }
});

// node_modules/yaml/dist/nodes/addPairToJSMap.js
var require_addPairToJSMap = __commonJS({
  "node_modules/yaml/dist/nodes/addPairToJSMap.js"(exports) {
    "use strict";
    var log = require_log();
    var merge = require_merge();
    var stringify2 = require_stringify();
    var identity = require_identity();
    var toJS = require_toJS();
    function addPairToJSMap(ctx, map, { key, value }) {
      if (identity.isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
      else if (merge.isMergeKey(ctx, key))
        merge.addMergeToJSMap(ctx, map, value);
      else {
        const jsKey = toJS.toJS(key, "", ctx);
        if (map instanceof Map) {
          map.set(jsKey, toJS.toJS(value, jsKey, ctx));
        } else if (map instanceof Set) {
          map.add(jsKey);
        } else {
          const stringKey = stringifyKey(key, jsKey, ctx);
          const jsValue = toJS.toJS(value, stringKey, ctx);
          if (stringKey in map)
            Object.defineProperty(map, stringKey, {
              value: jsValue,
              writable: true,
              enumerable: true,
              configurable: true
            });
          else
            map[stringKey] = jsValue;
        }
      }
      return map;
    }
    function stringifyKey(key, jsKey, ctx) {
      if (jsKey === null)
        return "";
      if (typeof jsKey !== "object")
        return String(jsKey);
      if (identity.isNode(key) && ctx?.doc) {
        const strCtx = stringify2.createStringifyContext(ctx.doc, {});
        strCtx.anchors = /* @__PURE__ */ new Set();
        for (const node of ctx.anchors.keys())
          strCtx.anchors.add(node.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
          let jsonStr = JSON.stringify(strKey);
          if (jsonStr.length > 40)
            jsonStr = jsonStr.substring(0, 36) + '..."';
          log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
          ctx.mapKeyWarned = true;
        }
        return strKey;
      }
      return JSON.stringify(jsKey);
    }
    exports.addPairToJSMap = addPairToJSMap;
  }
});

// node_modules/yaml/dist/nodes/Pair.js
var require_Pair = __commonJS({
  "node_modules/yaml/dist/nodes/Pair.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyPair = require_stringifyPair();
    var addPairToJSMap = require_addPairToJSMap();
    var identity = require_identity();
    function createPair(key, value, ctx) {
      const k = createNode.createNode(key, void 0, ctx);
      const v = createNode.createNode(value, void 0, ctx);
      return new Pair(k, v);
    }
    var Pair = class _Pair {
      constructor(key, value = null) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
        this.key = key;
        this.value = value;
      }
      clone(schema) {
        let { key, value } = this;
        if (identity.isNode(key))
          key = key.clone(schema);
        if (identity.isNode(value))
          value = value.clone(schema);
        return new _Pair(key, value);
      }
      toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
      }
      toString(ctx, onComment, onChompKeep) {
        return ctx?.doc ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep) : JSON.stringify(this);
      }
    };
    exports.Pair = Pair;
    exports.createPair = createPair;
  }
});

// node_modules/yaml/dist/stringify/stringifyCollection.js
var require_stringifyCollection = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyCollection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify2 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyCollection(collection, ctx, options) {
      const flow = ctx.inFlow ?? collection.flow;
      const stringify3 = flow ? stringifyFlowCollection : stringifyBlockCollection;
      return stringify3(collection, ctx, options);
    }
    function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
      const { indent, options: { commentString } } = ctx;
      const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
      let chompKeep = false;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment2 = null;
        if (identity.isNode(item)) {
          if (!chompKeep && item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
          if (item.comment)
            comment2 = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (!chompKeep && ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
          }
        }
        chompKeep = false;
        let str2 = stringify2.stringify(item, itemCtx, () => comment2 = null, () => chompKeep = true);
        if (comment2)
          str2 += stringifyComment.lineComment(str2, itemIndent, commentString(comment2));
        if (chompKeep && comment2)
          chompKeep = false;
        lines.push(blockItemPrefix + str2);
      }
      let str;
      if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
      } else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
          const line = lines[i];
          str += line ? `
${indent}${line}` : "\n";
        }
      }
      if (comment) {
        str += "\n" + stringifyComment.indentComment(commentString(comment), indent);
        if (onComment)
          onComment();
      } else if (chompKeep && onChompKeep)
        onChompKeep();
      return str;
    }
    function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
      const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
      itemIndent += indentStep;
      const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
      });
      let reqNewline = false;
      let linesAtValue = 0;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
          if (item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, false);
          if (item.comment)
            comment = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, false);
            if (ik.comment)
              reqNewline = true;
          }
          const iv = identity.isNode(item.value) ? item.value : null;
          if (iv) {
            if (iv.comment)
              comment = iv.comment;
            if (iv.commentBefore)
              reqNewline = true;
          } else if (item.value == null && ik?.comment) {
            comment = ik.comment;
          }
        }
        if (comment)
          reqNewline = true;
        let str = stringify2.stringify(item, itemCtx, () => comment = null);
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes("\n"));
        if (i < items.length - 1) {
          str += ",";
        } else if (ctx.options.trailingComma) {
          if (ctx.options.lineWidth > 0) {
            reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) + (str.length + 2) > ctx.options.lineWidth);
          }
          if (reqNewline) {
            str += ",";
          }
        }
        if (comment)
          str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
      }
      const { start, end } = flowChars;
      if (lines.length === 0) {
        return start + end;
      } else {
        if (!reqNewline) {
          const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
          reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
          let str = start;
          for (const line of lines)
            str += line ? `
${indentStep}${indent}${line}` : "\n";
          return `${str}
${indent}${end}`;
        } else {
          return `${start}${fcPadding}${lines.join(" ")}${fcPadding}${end}`;
        }
      }
    }
    function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
      if (comment && chompKeep)
        comment = comment.replace(/^\n+/, "");
      if (comment) {
        const ic = stringifyComment.indentComment(commentString(comment), indent);
        lines.push(ic.trimStart());
      }
    }
    exports.stringifyCollection = stringifyCollection;
  }
});

// node_modules/yaml/dist/nodes/YAMLMap.js
var require_YAMLMap = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLMap.js"(exports) {
    "use strict";
    var stringifyCollection = require_stringifyCollection();
    var addPairToJSMap = require_addPairToJSMap();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    function findPair(items, key) {
      const k = identity.isScalar(key) ? key.value : key;
      for (const it of items) {
        if (identity.isPair(it)) {
          if (it.key === key || it.key === k)
            return it;
          if (identity.isScalar(it.key) && it.key.value === k)
            return it;
        }
      }
      return void 0;
    }
    var YAMLMap = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:map";
      }
      constructor(schema) {
        super(identity.MAP, schema);
        this.items = [];
      }
      /**
       * A generic collection parsing method that can be extended
       * to other node classes that inherit from YAMLMap
       */
      static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
          if (typeof replacer === "function")
            value = replacer.call(obj, key, value);
          else if (Array.isArray(replacer) && !replacer.includes(key))
            return;
          if (value !== void 0 || keepUndefined)
            map.items.push(Pair.createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
          for (const [key, value] of obj)
            add(key, value);
        } else if (obj && typeof obj === "object") {
          for (const key of Object.keys(obj))
            add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === "function") {
          map.items.sort(schema.sortMapEntries);
        }
        return map;
      }
      /**
       * Adds a value to the collection.
       *
       * @param overwrite - If not set `true`, using a key that is already in the
       *   collection will throw. Otherwise, overwrites the previous value.
       */
      add(pair, overwrite) {
        let _pair;
        if (identity.isPair(pair))
          _pair = pair;
        else if (!pair || typeof pair !== "object" || !("key" in pair)) {
          _pair = new Pair.Pair(pair, pair?.value);
        } else
          _pair = new Pair.Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
          if (!overwrite)
            throw new Error(`Key ${_pair.key} already set`);
          if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
            prev.value.value = _pair.value;
          else
            prev.value = _pair.value;
        } else if (sortEntries) {
          const i = this.items.findIndex((item) => sortEntries(_pair, item) < 0);
          if (i === -1)
            this.items.push(_pair);
          else
            this.items.splice(i, 0, _pair);
        } else {
          this.items.push(_pair);
        }
      }
      delete(key) {
        const it = findPair(this.items, key);
        if (!it)
          return false;
        const del = this.items.splice(this.items.indexOf(it), 1);
        return del.length > 0;
      }
      get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node = it?.value;
        return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? void 0;
      }
      has(key) {
        return !!findPair(this.items, key);
      }
      set(key, value) {
        this.add(new Pair.Pair(key, value), true);
      }
      /**
       * @param ctx - Conversion context, originally set in Document#toJS()
       * @param {Class} Type - If set, forces the returned collection type
       * @returns Instance of Type, Map, or Object
       */
      toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const item of this.items)
          addPairToJSMap.addPairToJSMap(ctx, map, item);
        return map;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        for (const item of this.items) {
          if (!identity.isPair(item))
            throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
          ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "",
          flowChars: { start: "{", end: "}" },
          itemIndent: ctx.indent || "",
          onChompKeep,
          onComment
        });
      }
    };
    exports.YAMLMap = YAMLMap;
    exports.findPair = findPair;
  }
});

// node_modules/yaml/dist/schema/common/map.js
var require_map = __commonJS({
  "node_modules/yaml/dist/schema/common/map.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLMap = require_YAMLMap();
    var map = {
      collection: "map",
      default: true,
      nodeClass: YAMLMap.YAMLMap,
      tag: "tag:yaml.org,2002:map",
      resolve(map2, onError) {
        if (!identity.isMap(map2))
          onError("Expected a mapping for this tag");
        return map2;
      },
      createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
    };
    exports.map = map;
  }
});

// node_modules/yaml/dist/nodes/YAMLSeq.js
var require_YAMLSeq = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLSeq.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyCollection = require_stringifyCollection();
    var Collection = require_Collection();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var toJS = require_toJS();
    var YAMLSeq = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:seq";
      }
      constructor(schema) {
        super(identity.SEQ, schema);
        this.items = [];
      }
      add(value) {
        this.items.push(value);
      }
      /**
       * Removes a value from the collection.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       *
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return false;
        const del = this.items.splice(idx, 1);
        return del.length > 0;
      }
      get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return void 0;
        const it = this.items[idx];
        return !keepScalar && identity.isScalar(it) ? it.value : it;
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       */
      has(key) {
        const idx = asItemIndex(key);
        return typeof idx === "number" && idx < this.items.length;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       *
       * If `key` does not contain a representation of an integer, this will throw.
       * It may be wrapped in a `Scalar`.
       */
      set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
          prev.value = value;
        else
          this.items[idx] = value;
      }
      toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
          ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
          seq.push(toJS.toJS(item, String(i++), ctx));
        return seq;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "- ",
          flowChars: { start: "[", end: "]" },
          itemIndent: (ctx.indent || "") + "  ",
          onChompKeep,
          onComment
        });
      }
      static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
          let i = 0;
          for (let it of obj) {
            if (typeof replacer === "function") {
              const key = obj instanceof Set ? it : String(i++);
              it = replacer.call(obj, key, it);
            }
            seq.items.push(createNode.createNode(it, void 0, ctx));
          }
        }
        return seq;
      }
    };
    function asItemIndex(key) {
      let idx = identity.isScalar(key) ? key.value : key;
      if (idx && typeof idx === "string")
        idx = Number(idx);
      return typeof idx === "number" && Number.isInteger(idx) && idx >= 0 ? idx : null;
    }
    exports.YAMLSeq = YAMLSeq;
  }
});

// node_modules/yaml/dist/schema/common/seq.js
var require_seq = __commonJS({
  "node_modules/yaml/dist/schema/common/seq.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLSeq = require_YAMLSeq();
    var seq = {
      collection: "seq",
      default: true,
      nodeClass: YAMLSeq.YAMLSeq,
      tag: "tag:yaml.org,2002:seq",
      resolve(seq2, onError) {
        if (!identity.isSeq(seq2))
          onError("Expected a sequence for this tag");
        return seq2;
      },
      createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
    };
    exports.seq = seq;
  }
});

// node_modules/yaml/dist/schema/common/string.js
var require_string = __commonJS({
  "node_modules/yaml/dist/schema/common/string.js"(exports) {
    "use strict";
    var stringifyString = require_stringifyString();
    var string = {
      identify: (value) => typeof value === "string",
      default: true,
      tag: "tag:yaml.org,2002:str",
      resolve: (str) => str,
      stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
      }
    };
    exports.string = string;
  }
});

// node_modules/yaml/dist/schema/common/null.js
var require_null = __commonJS({
  "node_modules/yaml/dist/schema/common/null.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var nullTag = {
      identify: (value) => value == null,
      createNode: () => new Scalar.Scalar(null),
      default: true,
      tag: "tag:yaml.org,2002:null",
      test: /^(?:~|[Nn]ull|NULL)?$/,
      resolve: () => new Scalar.Scalar(null),
      stringify: ({ source }, ctx) => typeof source === "string" && nullTag.test.test(source) ? source : ctx.options.nullStr
    };
    exports.nullTag = nullTag;
  }
});

// node_modules/yaml/dist/schema/core/bool.js
var require_bool = __commonJS({
  "node_modules/yaml/dist/schema/core/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var boolTag = {
      identify: (value) => typeof value === "boolean",
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
      resolve: (str) => new Scalar.Scalar(str[0] === "t" || str[0] === "T"),
      stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
          const sv = source[0] === "t" || source[0] === "T";
          if (value === sv)
            return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
      }
    };
    exports.boolTag = boolTag;
  }
});

// node_modules/yaml/dist/stringify/stringifyNumber.js
var require_stringifyNumber = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyNumber.js"(exports) {
    "use strict";
    function stringifyNumber({ format, minFractionDigits, tag, value }) {
      if (typeof value === "bigint")
        return String(value);
      const num = typeof value === "number" ? value : Number(value);
      if (!isFinite(num))
        return isNaN(num) ? ".nan" : num < 0 ? "-.inf" : ".inf";
      let n = Object.is(value, -0) ? "-0" : JSON.stringify(value);
      if (!format && minFractionDigits && (!tag || tag === "tag:yaml.org,2002:float") && /^-?\d/.test(n) && !n.includes("e")) {
        let i = n.indexOf(".");
        if (i < 0) {
          i = n.length;
          n += ".";
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
          n += "0";
      }
      return n;
    }
    exports.stringifyNumber = stringifyNumber;
  }
});

// node_modules/yaml/dist/schema/core/float.js
var require_float = __commonJS({
  "node_modules/yaml/dist/schema/core/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str),
      stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
      resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str));
        const dot = str.indexOf(".");
        if (dot !== -1 && str[str.length - 1] === "0")
          node.minFractionDigits = str.length - dot - 1;
        return node;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/core/int.js
var require_int = __commonJS({
  "node_modules/yaml/dist/schema/core/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    var intResolve = (str, offset, radix, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix);
    function intStringify(node, radix, prefix) {
      const { value } = node;
      if (intIdentify(value) && value >= 0)
        return prefix + value.toString(radix);
      return stringifyNumber.stringifyNumber(node);
    }
    var intOct = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^0o[0-7]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
      stringify: (node) => intStringify(node, 8, "0o")
    };
    var int = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^0x[0-9a-fA-F]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node) => intStringify(node, 16, "0x")
    };
    exports.int = int;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/core/schema.js
var require_schema = __commonJS({
  "node_modules/yaml/dist/schema/core/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var bool = require_bool();
    var float = require_float();
    var int = require_int();
    var schema = [
      map.map,
      seq.seq,
      string.string,
      _null.nullTag,
      bool.boolTag,
      int.intOct,
      int.int,
      int.intHex,
      float.floatNaN,
      float.floatExp,
      float.float
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/json/schema.js
var require_schema2 = __commonJS({
  "node_modules/yaml/dist/schema/json/schema.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var map = require_map();
    var seq = require_seq();
    function intIdentify(value) {
      return typeof value === "bigint" || Number.isInteger(value);
    }
    var stringifyJSON = ({ value }) => JSON.stringify(value);
    var jsonScalars = [
      {
        identify: (value) => typeof value === "string",
        default: true,
        tag: "tag:yaml.org,2002:str",
        resolve: (str) => str,
        stringify: stringifyJSON
      },
      {
        identify: (value) => value == null,
        createNode: () => new Scalar.Scalar(null),
        default: true,
        tag: "tag:yaml.org,2002:null",
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
      },
      {
        identify: (value) => typeof value === "boolean",
        default: true,
        tag: "tag:yaml.org,2002:bool",
        test: /^true$|^false$/,
        resolve: (str) => str === "true",
        stringify: stringifyJSON
      },
      {
        identify: intIdentify,
        default: true,
        tag: "tag:yaml.org,2002:int",
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
      },
      {
        identify: (value) => typeof value === "number",
        default: true,
        tag: "tag:yaml.org,2002:float",
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: (str) => parseFloat(str),
        stringify: stringifyJSON
      }
    ];
    var jsonError = {
      default: true,
      tag: "",
      test: /^/,
      resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
      }
    };
    var schema = [map.map, seq.seq].concat(jsonScalars, jsonError);
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/binary.js
var require_binary = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/binary.js"(exports) {
    "use strict";
    var node_buffer = __require("buffer");
    var Scalar = require_Scalar();
    var stringifyString = require_stringifyString();
    var binary = {
      identify: (value) => value instanceof Uint8Array,
      // Buffer inherits from Uint8Array
      default: false,
      tag: "tag:yaml.org,2002:binary",
      /**
       * Returns a Buffer in node and an Uint8Array in browsers
       *
       * To use the resulting buffer as an image, you'll want to do something like:
       *
       *   const blob = new Blob([buffer], { type: 'image/jpeg' })
       *   document.querySelector('#photo').src = URL.createObjectURL(blob)
       */
      resolve(src, onError) {
        if (typeof node_buffer.Buffer === "function") {
          return node_buffer.Buffer.from(src, "base64");
        } else if (typeof atob === "function") {
          const str = atob(src.replace(/[\n\r]/g, ""));
          const buffer = new Uint8Array(str.length);
          for (let i = 0; i < str.length; ++i)
            buffer[i] = str.charCodeAt(i);
          return buffer;
        } else {
          onError("This environment does not support reading binary tags; either Buffer or atob is required");
          return src;
        }
      },
      stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
          return "";
        const buf = value;
        let str;
        if (typeof node_buffer.Buffer === "function") {
          str = buf instanceof node_buffer.Buffer ? buf.toString("base64") : node_buffer.Buffer.from(buf.buffer).toString("base64");
        } else if (typeof btoa === "function") {
          let s = "";
          for (let i = 0; i < buf.length; ++i)
            s += String.fromCharCode(buf[i]);
          str = btoa(s);
        } else {
          throw new Error("This environment does not support writing binary tags; either Buffer or btoa is required");
        }
        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
          const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
          const n = Math.ceil(str.length / lineWidth);
          const lines = new Array(n);
          for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
            lines[i] = str.substr(o, lineWidth);
          }
          str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? "\n" : " ");
        }
        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
      }
    };
    exports.binary = binary;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/pairs.js
var require_pairs = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/pairs.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLSeq = require_YAMLSeq();
    function resolvePairs(seq, onError) {
      if (identity.isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
          let item = seq.items[i];
          if (identity.isPair(item))
            continue;
          else if (identity.isMap(item)) {
            if (item.items.length > 1)
              onError("Each pair must have its own sequence indicator");
            const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
            if (item.commentBefore)
              pair.key.commentBefore = pair.key.commentBefore ? `${item.commentBefore}
${pair.key.commentBefore}` : item.commentBefore;
            if (item.comment) {
              const cn = pair.value ?? pair.key;
              cn.comment = cn.comment ? `${item.comment}
${cn.comment}` : item.comment;
            }
            item = pair;
          }
          seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
        }
      } else
        onError("Expected a sequence for this tag");
      return seq;
    }
    function createPairs(schema, iterable, ctx) {
      const { replacer } = ctx;
      const pairs2 = new YAMLSeq.YAMLSeq(schema);
      pairs2.tag = "tag:yaml.org,2002:pairs";
      let i = 0;
      if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
          if (typeof replacer === "function")
            it = replacer.call(iterable, String(i++), it);
          let key, value;
          if (Array.isArray(it)) {
            if (it.length === 2) {
              key = it[0];
              value = it[1];
            } else
              throw new TypeError(`Expected [key, value] tuple: ${it}`);
          } else if (it && it instanceof Object) {
            const keys = Object.keys(it);
            if (keys.length === 1) {
              key = keys[0];
              value = it[key];
            } else {
              throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
            }
          } else {
            key = it;
          }
          pairs2.items.push(Pair.createPair(key, value, ctx));
        }
      return pairs2;
    }
    var pairs = {
      collection: "seq",
      default: false,
      tag: "tag:yaml.org,2002:pairs",
      resolve: resolvePairs,
      createNode: createPairs
    };
    exports.createPairs = createPairs;
    exports.pairs = pairs;
    exports.resolvePairs = resolvePairs;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/omap.js
var require_omap = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/omap.js"(exports) {
    "use strict";
    var identity = require_identity();
    var toJS = require_toJS();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var pairs = require_pairs();
    var YAMLOMap = class _YAMLOMap extends YAMLSeq.YAMLSeq {
      constructor() {
        super();
        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
        this.tag = _YAMLOMap.tag;
      }
      /**
       * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
       * but TypeScript won't allow widening the signature of a child method.
       */
      toJSON(_, ctx) {
        if (!ctx)
          return super.toJSON(_);
        const map = /* @__PURE__ */ new Map();
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const pair of this.items) {
          let key, value;
          if (identity.isPair(pair)) {
            key = toJS.toJS(pair.key, "", ctx);
            value = toJS.toJS(pair.value, key, ctx);
          } else {
            key = toJS.toJS(pair, "", ctx);
          }
          if (map.has(key))
            throw new Error("Ordered maps must not include duplicate keys");
          map.set(key, value);
        }
        return map;
      }
      static from(schema, iterable, ctx) {
        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
        const omap2 = new this();
        omap2.items = pairs$1.items;
        return omap2;
      }
    };
    YAMLOMap.tag = "tag:yaml.org,2002:omap";
    var omap = {
      collection: "seq",
      identify: (value) => value instanceof Map,
      nodeClass: YAMLOMap,
      default: false,
      tag: "tag:yaml.org,2002:omap",
      resolve(seq, onError) {
        const pairs$1 = pairs.resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs$1.items) {
          if (identity.isScalar(key)) {
            if (seenKeys.includes(key.value)) {
              onError(`Ordered maps must not include duplicate keys: ${key.value}`);
            } else {
              seenKeys.push(key.value);
            }
          }
        }
        return Object.assign(new YAMLOMap(), pairs$1);
      },
      createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
    };
    exports.YAMLOMap = YAMLOMap;
    exports.omap = omap;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/bool.js
var require_bool2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function boolStringify({ value, source }, ctx) {
      const boolObj = value ? trueTag : falseTag;
      if (source && boolObj.test.test(source))
        return source;
      return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
    var trueTag = {
      identify: (value) => value === true,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
      resolve: () => new Scalar.Scalar(true),
      stringify: boolStringify
    };
    var falseTag = {
      identify: (value) => value === false,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
      resolve: () => new Scalar.Scalar(false),
      stringify: boolStringify
    };
    exports.falseTag = falseTag;
    exports.trueTag = trueTag;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/float.js
var require_float2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str.replace(/_/g, "")),
      stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
      resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, "")));
        const dot = str.indexOf(".");
        if (dot !== -1) {
          const f = str.substring(dot + 1).replace(/_/g, "");
          if (f[f.length - 1] === "0")
            node.minFractionDigits = f.length;
        }
        return node;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/int.js
var require_int2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    function intResolve(str, offset, radix, { intAsBigInt }) {
      const sign = str[0];
      if (sign === "-" || sign === "+")
        offset += 1;
      str = str.substring(offset).replace(/_/g, "");
      if (intAsBigInt) {
        switch (radix) {
          case 2:
            str = `0b${str}`;
            break;
          case 8:
            str = `0o${str}`;
            break;
          case 16:
            str = `0x${str}`;
            break;
        }
        const n2 = BigInt(str);
        return sign === "-" ? BigInt(-1) * n2 : n2;
      }
      const n = parseInt(str, radix);
      return sign === "-" ? -1 * n : n;
    }
    function intStringify(node, radix, prefix) {
      const { value } = node;
      if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? "-" + prefix + str.substr(1) : prefix + str;
      }
      return stringifyNumber.stringifyNumber(node);
    }
    var intBin = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "BIN",
      test: /^[-+]?0b[0-1_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
      stringify: (node) => intStringify(node, 2, "0b")
    };
    var intOct = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^[-+]?0[0-7_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
      stringify: (node) => intStringify(node, 8, "0")
    };
    var int = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9][0-9_]*$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^[-+]?0x[0-9a-fA-F_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node) => intStringify(node, 16, "0x")
    };
    exports.int = int;
    exports.intBin = intBin;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/set.js
var require_set = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/set.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSet = class _YAMLSet extends YAMLMap.YAMLMap {
      constructor(schema) {
        super(schema);
        this.tag = _YAMLSet.tag;
      }
      add(key) {
        let pair;
        if (identity.isPair(key))
          pair = key;
        else if (key && typeof key === "object" && "key" in key && "value" in key && key.value === null)
          pair = new Pair.Pair(key.key, null);
        else
          pair = new Pair.Pair(key, null);
        const prev = YAMLMap.findPair(this.items, pair.key);
        if (!prev)
          this.items.push(pair);
      }
      /**
       * If `keepPair` is `true`, returns the Pair matching `key`.
       * Otherwise, returns the value of that Pair's key.
       */
      get(key, keepPair) {
        const pair = YAMLMap.findPair(this.items, key);
        return !keepPair && identity.isPair(pair) ? identity.isScalar(pair.key) ? pair.key.value : pair.key : pair;
      }
      set(key, value) {
        if (typeof value !== "boolean")
          throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = YAMLMap.findPair(this.items, key);
        if (prev && !value) {
          this.items.splice(this.items.indexOf(prev), 1);
        } else if (!prev && value) {
          this.items.push(new Pair.Pair(key));
        }
      }
      toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        if (this.hasAllNullValues(true))
          return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
          throw new Error("Set items must all have null values");
      }
      static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set2 = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
          for (let value of iterable) {
            if (typeof replacer === "function")
              value = replacer.call(iterable, value, value);
            set2.items.push(Pair.createPair(value, null, ctx));
          }
        return set2;
      }
    };
    YAMLSet.tag = "tag:yaml.org,2002:set";
    var set = {
      collection: "map",
      identify: (value) => value instanceof Set,
      nodeClass: YAMLSet,
      default: false,
      tag: "tag:yaml.org,2002:set",
      createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
      resolve(map, onError) {
        if (identity.isMap(map)) {
          if (map.hasAllNullValues(true))
            return Object.assign(new YAMLSet(), map);
          else
            onError("Set items must all have null values");
        } else
          onError("Expected a mapping for this tag");
        return map;
      }
    };
    exports.YAMLSet = YAMLSet;
    exports.set = set;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/timestamp.js
var require_timestamp = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/timestamp.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    function parseSexagesimal(str, asBigInt) {
      const sign = str[0];
      const parts = sign === "-" || sign === "+" ? str.substring(1) : str;
      const num = (n) => asBigInt ? BigInt(n) : Number(n);
      const res = parts.replace(/_/g, "").split(":").reduce((res2, p) => res2 * num(60) + num(p), num(0));
      return sign === "-" ? num(-1) * res : res;
    }
    function stringifySexagesimal(node) {
      let { value } = node;
      let num = (n) => n;
      if (typeof value === "bigint")
        num = (n) => BigInt(n);
      else if (isNaN(value) || !isFinite(value))
        return stringifyNumber.stringifyNumber(node);
      let sign = "";
      if (value < 0) {
        sign = "-";
        value *= num(-1);
      }
      const _60 = num(60);
      const parts = [value % _60];
      if (value < 60) {
        parts.unshift(0);
      } else {
        value = (value - parts[0]) / _60;
        parts.unshift(value % _60);
        if (value >= 60) {
          value = (value - parts[0]) / _60;
          parts.unshift(value);
        }
      }
      return sign + parts.map((n) => String(n).padStart(2, "0")).join(":").replace(/000000\d*$/, "");
    }
    var intTime = {
      identify: (value) => typeof value === "bigint" || Number.isInteger(value),
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
      resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
      stringify: stringifySexagesimal
    };
    var floatTime = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
      resolve: (str) => parseSexagesimal(str, false),
      stringify: stringifySexagesimal
    };
    var timestamp = {
      identify: (value) => value instanceof Date,
      default: true,
      tag: "tag:yaml.org,2002:timestamp",
      // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
      // may be omitted altogether, resulting in a date format. In such a case, the time part is
      // assumed to be 00:00:00Z (start of day, UTC).
      test: RegExp("^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:t|T|[ \\t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$"),
      resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
          throw new Error("!!timestamp expects a date, starting with yyyy-mm-dd");
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + "00").substr(1, 3)) : 0;
        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== "Z") {
          let d = parseSexagesimal(tz, false);
          if (Math.abs(d) < 30)
            d *= 60;
          date -= 6e4 * d;
        }
        return new Date(date);
      },
      stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, "") ?? ""
    };
    exports.floatTime = floatTime;
    exports.intTime = intTime;
    exports.timestamp = timestamp;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/schema.js
var require_schema3 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var binary = require_binary();
    var bool = require_bool2();
    var float = require_float2();
    var int = require_int2();
    var merge = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var set = require_set();
    var timestamp = require_timestamp();
    var schema = [
      map.map,
      seq.seq,
      string.string,
      _null.nullTag,
      bool.trueTag,
      bool.falseTag,
      int.intBin,
      int.intOct,
      int.int,
      int.intHex,
      float.floatNaN,
      float.floatExp,
      float.float,
      binary.binary,
      merge.merge,
      omap.omap,
      pairs.pairs,
      set.set,
      timestamp.intTime,
      timestamp.floatTime,
      timestamp.timestamp
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/tags.js
var require_tags = __commonJS({
  "node_modules/yaml/dist/schema/tags.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var bool = require_bool();
    var float = require_float();
    var int = require_int();
    var schema = require_schema();
    var schema$1 = require_schema2();
    var binary = require_binary();
    var merge = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var schema$2 = require_schema3();
    var set = require_set();
    var timestamp = require_timestamp();
    var schemas = /* @__PURE__ */ new Map([
      ["core", schema.schema],
      ["failsafe", [map.map, seq.seq, string.string]],
      ["json", schema$1.schema],
      ["yaml11", schema$2.schema],
      ["yaml-1.1", schema$2.schema]
    ]);
    var tagsByName = {
      binary: binary.binary,
      bool: bool.boolTag,
      float: float.float,
      floatExp: float.floatExp,
      floatNaN: float.floatNaN,
      floatTime: timestamp.floatTime,
      int: int.int,
      intHex: int.intHex,
      intOct: int.intOct,
      intTime: timestamp.intTime,
      map: map.map,
      merge: merge.merge,
      null: _null.nullTag,
      omap: omap.omap,
      pairs: pairs.pairs,
      seq: seq.seq,
      set: set.set,
      timestamp: timestamp.timestamp
    };
    var coreKnownTags = {
      "tag:yaml.org,2002:binary": binary.binary,
      "tag:yaml.org,2002:merge": merge.merge,
      "tag:yaml.org,2002:omap": omap.omap,
      "tag:yaml.org,2002:pairs": pairs.pairs,
      "tag:yaml.org,2002:set": set.set,
      "tag:yaml.org,2002:timestamp": timestamp.timestamp
    };
    function getTags(customTags, schemaName, addMergeTag) {
      const schemaTags = schemas.get(schemaName);
      if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge.merge) ? schemaTags.concat(merge.merge) : schemaTags.slice();
      }
      let tags = schemaTags;
      if (!tags) {
        if (Array.isArray(customTags))
          tags = [];
        else {
          const keys = Array.from(schemas.keys()).filter((key) => key !== "yaml11").map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
      }
      if (Array.isArray(customTags)) {
        for (const tag of customTags)
          tags = tags.concat(tag);
      } else if (typeof customTags === "function") {
        tags = customTags(tags.slice());
      }
      if (addMergeTag)
        tags = tags.concat(merge.merge);
      return tags.reduce((tags2, tag) => {
        const tagObj = typeof tag === "string" ? tagsByName[tag] : tag;
        if (!tagObj) {
          const tagName = JSON.stringify(tag);
          const keys = Object.keys(tagsByName).map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags2.includes(tagObj))
          tags2.push(tagObj);
        return tags2;
      }, []);
    }
    exports.coreKnownTags = coreKnownTags;
    exports.getTags = getTags;
  }
});

// node_modules/yaml/dist/schema/Schema.js
var require_Schema = __commonJS({
  "node_modules/yaml/dist/schema/Schema.js"(exports) {
    "use strict";
    var identity = require_identity();
    var map = require_map();
    var seq = require_seq();
    var string = require_string();
    var tags = require_tags();
    var sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    var Schema = class _Schema {
      constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat) ? tags.getTags(compat, "compat") : compat ? tags.getTags(null, compat) : null;
        this.name = typeof schema === "string" && schema || "core";
        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
        this.tags = tags.getTags(customTags, this.name, merge);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, identity.MAP, { value: map.map });
        Object.defineProperty(this, identity.SCALAR, { value: string.string });
        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
        this.sortMapEntries = typeof sortMapEntries === "function" ? sortMapEntries : sortMapEntries === true ? sortMapEntriesByKey : null;
      }
      clone() {
        const copy = Object.create(_Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
      }
    };
    exports.Schema = Schema;
  }
});

// node_modules/yaml/dist/stringify/stringifyDocument.js
var require_stringifyDocument = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyDocument.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify2 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyDocument(doc, options) {
      const lines = [];
      let hasDirectives = options.directives === true;
      if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
          lines.push(dir);
          hasDirectives = true;
        } else if (doc.directives.docStart)
          hasDirectives = true;
      }
      if (hasDirectives)
        lines.push("---");
      const ctx = stringify2.createStringifyContext(doc, options);
      const { commentString } = ctx.options;
      if (doc.commentBefore) {
        if (lines.length !== 1)
          lines.unshift("");
        const cs = commentString(doc.commentBefore);
        lines.unshift(stringifyComment.indentComment(cs, ""));
      }
      let chompKeep = false;
      let contentComment = null;
      if (doc.contents) {
        if (identity.isNode(doc.contents)) {
          if (doc.contents.spaceBefore && hasDirectives)
            lines.push("");
          if (doc.contents.commentBefore) {
            const cs = commentString(doc.contents.commentBefore);
            lines.push(stringifyComment.indentComment(cs, ""));
          }
          ctx.forceBlockIndent = !!doc.comment;
          contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? void 0 : () => chompKeep = true;
        let body = stringify2.stringify(doc.contents, ctx, () => contentComment = null, onChompKeep);
        if (contentComment)
          body += stringifyComment.lineComment(body, "", commentString(contentComment));
        if ((body[0] === "|" || body[0] === ">") && lines[lines.length - 1] === "---") {
          lines[lines.length - 1] = `--- ${body}`;
        } else
          lines.push(body);
      } else {
        lines.push(stringify2.stringify(doc.contents, ctx));
      }
      if (doc.directives?.docEnd) {
        if (doc.comment) {
          const cs = commentString(doc.comment);
          if (cs.includes("\n")) {
            lines.push("...");
            lines.push(stringifyComment.indentComment(cs, ""));
          } else {
            lines.push(`... ${cs}`);
          }
        } else {
          lines.push("...");
        }
      } else {
        let dc = doc.comment;
        if (dc && chompKeep)
          dc = dc.replace(/^\n+/, "");
        if (dc) {
          if ((!chompKeep || contentComment) && lines[lines.length - 1] !== "")
            lines.push("");
          lines.push(stringifyComment.indentComment(commentString(dc), ""));
        }
      }
      return lines.join("\n") + "\n";
    }
    exports.stringifyDocument = stringifyDocument;
  }
});

// node_modules/yaml/dist/doc/Document.js
var require_Document = __commonJS({
  "node_modules/yaml/dist/doc/Document.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var toJS = require_toJS();
    var Schema = require_Schema();
    var stringifyDocument = require_stringifyDocument();
    var anchors = require_anchors();
    var applyReviver = require_applyReviver();
    var createNode = require_createNode();
    var directives = require_directives();
    var Document = class _Document {
      constructor(value, replacer, options) {
        this.commentBefore = null;
        this.comment = null;
        this.errors = [];
        this.warnings = [];
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
        let _replacer = null;
        if (typeof replacer === "function" || Array.isArray(replacer)) {
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const opt = Object.assign({
          intAsBigInt: false,
          keepSourceTokens: false,
          logLevel: "warn",
          prettyErrors: true,
          strict: true,
          stringKeys: false,
          uniqueKeys: true,
          version: "1.2"
        }, options);
        this.options = opt;
        let { version } = opt;
        if (options?._directives) {
          this.directives = options._directives.atDocument();
          if (this.directives.yaml.explicit)
            version = this.directives.yaml.version;
        } else
          this.directives = new directives.Directives({ version });
        this.setSchema(version, options);
        this.contents = value === void 0 ? null : this.createNode(value, _replacer, options);
      }
      /**
       * Create a deep copy of this Document and its contents.
       *
       * Custom Node values that inherit from `Object` still refer to their original instances.
       */
      clone() {
        const copy = Object.create(_Document.prototype, {
          [identity.NODE_TYPE]: { value: identity.DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
          copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        copy.contents = identity.isNode(this.contents) ? this.contents.clone(copy.schema) : this.contents;
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** Adds a value to the document. */
      add(value) {
        if (assertCollection(this.contents))
          this.contents.add(value);
      }
      /** Adds a value to the document. */
      addIn(path, value) {
        if (assertCollection(this.contents))
          this.contents.addIn(path, value);
      }
      /**
       * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
       *
       * If `node` already has an anchor, `name` is ignored.
       * Otherwise, the `node.anchor` value will be set to `name`,
       * or if an anchor with that name is already present in the document,
       * `name` will be used as a prefix for a new unique anchor.
       * If `name` is undefined, the generated anchor will use 'a' as a prefix.
       */
      createAlias(node, name) {
        if (!node.anchor) {
          const prev = anchors.anchorNames(this);
          node.anchor = // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          !name || prev.has(name) ? anchors.findNewAnchor(name || "a", prev) : name;
        }
        return new Alias.Alias(node.anchor);
      }
      createNode(value, replacer, options) {
        let _replacer = void 0;
        if (typeof replacer === "function") {
          value = replacer.call({ "": value }, "", value);
          _replacer = replacer;
        } else if (Array.isArray(replacer)) {
          const keyToStr = (v) => typeof v === "number" || v instanceof String || v instanceof Number;
          const asStr = replacer.filter(keyToStr).map(String);
          if (asStr.length > 0)
            replacer = replacer.concat(asStr);
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(
          this,
          // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          anchorPrefix || "a"
        );
        const ctx = {
          aliasDuplicateObjects: aliasDuplicateObjects ?? true,
          keepUndefined: keepUndefined ?? false,
          onAnchor,
          onTagObj,
          replacer: _replacer,
          schema: this.schema,
          sourceObjects
        };
        const node = createNode.createNode(value, tag, ctx);
        if (flow && identity.isCollection(node))
          node.flow = true;
        setAnchors();
        return node;
      }
      /**
       * Convert a key and a value into a `Pair` using the current schema,
       * recursively wrapping all values as `Scalar` or `Collection` nodes.
       */
      createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair.Pair(k, v);
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path) {
        if (Collection.isEmptyPath(path)) {
          if (this.contents == null)
            return false;
          this.contents = null;
          return true;
        }
        return assertCollection(this.contents) ? this.contents.deleteIn(path) : false;
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      get(key, keepScalar) {
        return identity.isCollection(this.contents) ? this.contents.get(key, keepScalar) : void 0;
      }
      /**
       * Returns item at `path`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path, keepScalar) {
        if (Collection.isEmptyPath(path))
          return !keepScalar && identity.isScalar(this.contents) ? this.contents.value : this.contents;
        return identity.isCollection(this.contents) ? this.contents.getIn(path, keepScalar) : void 0;
      }
      /**
       * Checks if the document includes a value with the key `key`.
       */
      has(key) {
        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
      }
      /**
       * Checks if the document includes a value at `path`.
       */
      hasIn(path) {
        if (Collection.isEmptyPath(path))
          return this.contents !== void 0;
        return identity.isCollection(this.contents) ? this.contents.hasIn(path) : false;
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      set(key, value) {
        if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, [key], value);
        } else if (assertCollection(this.contents)) {
          this.contents.set(key, value);
        }
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path, value) {
        if (Collection.isEmptyPath(path)) {
          this.contents = value;
        } else if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, Array.from(path), value);
        } else if (assertCollection(this.contents)) {
          this.contents.setIn(path, value);
        }
      }
      /**
       * Change the YAML version and schema used by the document.
       * A `null` version disables support for directives, explicit tags, anchors, and aliases.
       * It also requires the `schema` option to be given as a `Schema` instance value.
       *
       * Overrides all previously set schema options.
       */
      setSchema(version, options = {}) {
        if (typeof version === "number")
          version = String(version);
        let opt;
        switch (version) {
          case "1.1":
            if (this.directives)
              this.directives.yaml.version = "1.1";
            else
              this.directives = new directives.Directives({ version: "1.1" });
            opt = { resolveKnownTags: false, schema: "yaml-1.1" };
            break;
          case "1.2":
          case "next":
            if (this.directives)
              this.directives.yaml.version = version;
            else
              this.directives = new directives.Directives({ version });
            opt = { resolveKnownTags: true, schema: "core" };
            break;
          case null:
            if (this.directives)
              delete this.directives;
            opt = null;
            break;
          default: {
            const sv = JSON.stringify(version);
            throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
          }
        }
        if (options.schema instanceof Object)
          this.schema = options.schema;
        else if (opt)
          this.schema = new Schema.Schema(Object.assign(opt, options));
        else
          throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
      }
      // json & jsonArg are only used from toJSON()
      toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc: this,
          keep: !json,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this.contents, jsonArg ?? "", ctx);
        if (typeof onAnchor === "function")
          for (const { count, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
      /**
       * A JSON representation of the document `contents`.
       *
       * @param jsonArg Used by `JSON.stringify` to indicate the array index or
       *   property name.
       */
      toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
      }
      /** A YAML representation of the document. */
      toString(options = {}) {
        if (this.errors.length > 0)
          throw new Error("Document with errors cannot be stringified");
        if ("indent" in options && (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
          const s = JSON.stringify(options.indent);
          throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument.stringifyDocument(this, options);
      }
    };
    function assertCollection(contents) {
      if (identity.isCollection(contents))
        return true;
      throw new Error("Expected a YAML collection as document contents");
    }
    exports.Document = Document;
  }
});

// node_modules/yaml/dist/errors.js
var require_errors = __commonJS({
  "node_modules/yaml/dist/errors.js"(exports) {
    "use strict";
    var YAMLError = class extends Error {
      constructor(name, pos, code, message) {
        super();
        this.name = name;
        this.code = code;
        this.message = message;
        this.pos = pos;
      }
    };
    var YAMLParseError = class extends YAMLError {
      constructor(pos, code, message) {
        super("YAMLParseError", pos, code, message);
      }
    };
    var YAMLWarning = class extends YAMLError {
      constructor(pos, code, message) {
        super("YAMLWarning", pos, code, message);
      }
    };
    var prettifyError = (src, lc) => (error2) => {
      if (error2.pos[0] === -1)
        return;
      error2.linePos = error2.pos.map((pos) => lc.linePos(pos));
      const { line, col } = error2.linePos[0];
      error2.message += ` at line ${line}, column ${col}`;
      let ci = col - 1;
      let lineStr = src.substring(lc.lineStarts[line - 1], lc.lineStarts[line]).replace(/[\n\r]+$/, "");
      if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = "\u2026" + lineStr.substring(trimStart);
        ci -= trimStart - 1;
      }
      if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + "\u2026";
      if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
          prev = prev.substring(0, 79) + "\u2026\n";
        lineStr = prev + lineStr;
      }
      if (/[^ ]/.test(lineStr)) {
        let count = 1;
        const end = error2.linePos[1];
        if (end?.line === line && end.col > col) {
          count = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = " ".repeat(ci) + "^".repeat(count);
        error2.message += `:

${lineStr}
${pointer}
`;
      }
    };
    exports.YAMLError = YAMLError;
    exports.YAMLParseError = YAMLParseError;
    exports.YAMLWarning = YAMLWarning;
    exports.prettifyError = prettifyError;
  }
});

// node_modules/yaml/dist/compose/resolve-props.js
var require_resolve_props = __commonJS({
  "node_modules/yaml/dist/compose/resolve-props.js"(exports) {
    "use strict";
    function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
      let spaceBefore = false;
      let atNewline = startOnNewline;
      let hasSpace = startOnNewline;
      let comment = "";
      let commentSep = "";
      let hasNewline = false;
      let reqSpace = false;
      let tab = null;
      let anchor = null;
      let tag = null;
      let newlineAfterProp = null;
      let comma = null;
      let found2 = null;
      let start = null;
      for (const token of tokens) {
        if (reqSpace) {
          if (token.type !== "space" && token.type !== "newline" && token.type !== "comma")
            onError(token.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
          reqSpace = false;
        }
        if (tab) {
          if (atNewline && token.type !== "comment" && token.type !== "newline") {
            onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
          }
          tab = null;
        }
        switch (token.type) {
          case "space":
            if (!flow && (indicator !== "doc-start" || next?.type !== "flow-collection") && token.source.includes("	")) {
              tab = token;
            }
            hasSpace = true;
            break;
          case "comment": {
            if (!hasSpace)
              onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
            const cb = token.source.substring(1) || " ";
            if (!comment)
              comment = cb;
            else
              comment += commentSep + cb;
            commentSep = "";
            atNewline = false;
            break;
          }
          case "newline":
            if (atNewline) {
              if (comment)
                comment += token.source;
              else if (!found2 || indicator !== "seq-item-ind")
                spaceBefore = true;
            } else
              commentSep += token.source;
            atNewline = true;
            hasNewline = true;
            if (anchor || tag)
              newlineAfterProp = token;
            hasSpace = true;
            break;
          case "anchor":
            if (anchor)
              onError(token, "MULTIPLE_ANCHORS", "A node can have at most one anchor");
            if (token.source.endsWith(":"))
              onError(token.offset + token.source.length - 1, "BAD_ALIAS", "Anchor ending in : is ambiguous", true);
            anchor = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          case "tag": {
            if (tag)
              onError(token, "MULTIPLE_TAGS", "A node can have at most one tag");
            tag = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          }
          case indicator:
            if (anchor || tag)
              onError(token, "BAD_PROP_ORDER", `Anchors and tags must be after the ${token.source} indicator`);
            if (found2)
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.source} in ${flow ?? "collection"}`);
            found2 = token;
            atNewline = indicator === "seq-item-ind" || indicator === "explicit-key-ind";
            hasSpace = false;
            break;
          case "comma":
            if (flow) {
              if (comma)
                onError(token, "UNEXPECTED_TOKEN", `Unexpected , in ${flow}`);
              comma = token;
              atNewline = false;
              hasSpace = false;
              break;
            }
          // else fallthrough
          default:
            onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.type} token`);
            atNewline = false;
            hasSpace = false;
        }
      }
      const last = tokens[tokens.length - 1];
      const end = last ? last.offset + last.source.length : offset;
      if (reqSpace && next && next.type !== "space" && next.type !== "newline" && next.type !== "comma" && (next.type !== "scalar" || next.source !== "")) {
        onError(next.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
      }
      if (tab && (atNewline && tab.indent <= parentIndent || next?.type === "block-map" || next?.type === "block-seq"))
        onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
      return {
        comma,
        found: found2,
        spaceBefore,
        comment,
        hasNewline,
        anchor,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
      };
    }
    exports.resolveProps = resolveProps;
  }
});

// node_modules/yaml/dist/compose/util-contains-newline.js
var require_util_contains_newline = __commonJS({
  "node_modules/yaml/dist/compose/util-contains-newline.js"(exports) {
    "use strict";
    function containsNewline(key) {
      if (!key)
        return null;
      switch (key.type) {
        case "alias":
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          if (key.source.includes("\n"))
            return true;
          if (key.end) {
            for (const st of key.end)
              if (st.type === "newline")
                return true;
          }
          return false;
        case "flow-collection":
          for (const it of key.items) {
            for (const st of it.start)
              if (st.type === "newline")
                return true;
            if (it.sep) {
              for (const st of it.sep)
                if (st.type === "newline")
                  return true;
            }
            if (containsNewline(it.key) || containsNewline(it.value))
              return true;
          }
          return false;
        default:
          return true;
      }
    }
    exports.containsNewline = containsNewline;
  }
});

// node_modules/yaml/dist/compose/util-flow-indent-check.js
var require_util_flow_indent_check = __commonJS({
  "node_modules/yaml/dist/compose/util-flow-indent-check.js"(exports) {
    "use strict";
    var utilContainsNewline = require_util_contains_newline();
    function flowIndentCheck(indent, fc, onError) {
      if (fc?.type === "flow-collection") {
        const end = fc.end[0];
        if (end.indent === indent && (end.source === "]" || end.source === "}") && utilContainsNewline.containsNewline(fc)) {
          const msg = "Flow end indicator should be more indented than parent";
          onError(end, "BAD_INDENT", msg, true);
        }
      }
    }
    exports.flowIndentCheck = flowIndentCheck;
  }
});

// node_modules/yaml/dist/compose/util-map-includes.js
var require_util_map_includes = __commonJS({
  "node_modules/yaml/dist/compose/util-map-includes.js"(exports) {
    "use strict";
    var identity = require_identity();
    function mapIncludes(ctx, items, search) {
      const { uniqueKeys } = ctx.options;
      if (uniqueKeys === false)
        return false;
      const isEqual = typeof uniqueKeys === "function" ? uniqueKeys : (a, b) => a === b || identity.isScalar(a) && identity.isScalar(b) && a.value === b.value;
      return items.some((pair) => isEqual(pair.key, search));
    }
    exports.mapIncludes = mapIncludes;
  }
});

// node_modules/yaml/dist/compose/resolve-block-map.js
var require_resolve_block_map = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-map.js"(exports) {
    "use strict";
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    var utilMapIncludes = require_util_map_includes();
    var startColMsg = "All mapping items must start at the same column";
    function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
      const map = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      let offset = bm.offset;
      let commentEnd = null;
      for (const collItem of bm.items) {
        const { start, key, sep: sep2, value } = collItem;
        const keyProps = resolveProps.resolveProps(start, {
          indicator: "explicit-key-ind",
          next: key ?? sep2?.[0],
          offset,
          onError,
          parentIndent: bm.indent,
          startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
          if (key) {
            if (key.type === "block-seq")
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key");
            else if ("indent" in key && key.indent !== bm.indent)
              onError(offset, "BAD_INDENT", startColMsg);
          }
          if (!keyProps.anchor && !keyProps.tag && !sep2) {
            commentEnd = keyProps.end;
            if (keyProps.comment) {
              if (map.comment)
                map.comment += "\n" + keyProps.comment;
              else
                map.comment = keyProps.comment;
            }
            continue;
          }
          if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
            onError(key ?? start[start.length - 1], "MULTILINE_IMPLICIT_KEY", "Implicit keys need to be on a single line");
          }
        } else if (keyProps.found?.indent !== bm.indent) {
          onError(offset, "BAD_INDENT", startColMsg);
        }
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode2 = key ? composeNode(ctx, key, keyProps, onError) : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode2))
          onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
        const valueProps = resolveProps.resolveProps(sep2 ?? [], {
          indicator: "map-value-ind",
          next: value,
          offset: keyNode2.range[2],
          onError,
          parentIndent: bm.indent,
          startOnNewline: !key || key.type === "block-scalar"
        });
        offset = valueProps.end;
        if (valueProps.found) {
          if (implicitKey) {
            if (value?.type === "block-map" && !valueProps.hasNewline)
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "Nested mappings are not allowed in compact mappings");
            if (ctx.options.strict && keyProps.start < valueProps.found.offset - 1024)
              onError(keyNode2.range, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit block mapping key");
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : composeEmptyNode(ctx, offset, sep2, null, valueProps, onError);
          if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
          offset = valueNode.range[2];
          const pair = new Pair.Pair(keyNode2, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        } else {
          if (implicitKey)
            onError(keyNode2.range, "MISSING_CHAR", "Implicit map keys need to be followed by map values");
          if (valueProps.comment) {
            if (keyNode2.comment)
              keyNode2.comment += "\n" + valueProps.comment;
            else
              keyNode2.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode2);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        }
      }
      if (commentEnd && commentEnd < offset)
        onError(commentEnd, "IMPOSSIBLE", "Map comment with trailing content");
      map.range = [bm.offset, offset, commentEnd ?? offset];
      return map;
    }
    exports.resolveBlockMap = resolveBlockMap;
  }
});

// node_modules/yaml/dist/compose/resolve-block-seq.js
var require_resolve_block_seq = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-seq.js"(exports) {
    "use strict";
    var YAMLSeq = require_YAMLSeq();
    var resolveProps = require_resolve_props();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
      const seq = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = bs.offset;
      let commentEnd = null;
      for (const { start, value } of bs.items) {
        const props = resolveProps.resolveProps(start, {
          indicator: "seq-item-ind",
          next: value,
          offset,
          onError,
          parentIndent: bs.indent,
          startOnNewline: true
        });
        if (!props.found) {
          if (props.anchor || props.tag || value) {
            if (value?.type === "block-seq")
              onError(props.end, "BAD_INDENT", "All sequence items must start at the same column");
            else
              onError(offset, "MISSING_CHAR", "Sequence item without - indicator");
          } else {
            commentEnd = props.end;
            if (props.comment)
              seq.comment = props.comment;
            continue;
          }
        }
        const node = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
        offset = node.range[2];
        seq.items.push(node);
      }
      seq.range = [bs.offset, offset, commentEnd ?? offset];
      return seq;
    }
    exports.resolveBlockSeq = resolveBlockSeq;
  }
});

// node_modules/yaml/dist/compose/resolve-end.js
var require_resolve_end = __commonJS({
  "node_modules/yaml/dist/compose/resolve-end.js"(exports) {
    "use strict";
    function resolveEnd(end, offset, reqSpace, onError) {
      let comment = "";
      if (end) {
        let hasSpace = false;
        let sep2 = "";
        for (const token of end) {
          const { source, type } = token;
          switch (type) {
            case "space":
              hasSpace = true;
              break;
            case "comment": {
              if (reqSpace && !hasSpace)
                onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
              const cb = source.substring(1) || " ";
              if (!comment)
                comment = cb;
              else
                comment += sep2 + cb;
              sep2 = "";
              break;
            }
            case "newline":
              if (comment)
                sep2 += source;
              hasSpace = true;
              break;
            default:
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${type} at node end`);
          }
          offset += source.length;
        }
      }
      return { comment, offset };
    }
    exports.resolveEnd = resolveEnd;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-collection.js
var require_resolve_flow_collection = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilMapIncludes = require_util_map_includes();
    var blockMsg = "Block collections are not allowed within flow collections";
    var isBlock = (token) => token && (token.type === "block-map" || token.type === "block-seq");
    function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
      const isMap3 = fc.start.source === "{";
      const fcName = isMap3 ? "flow map" : "flow sequence";
      const NodeClass = tag?.nodeClass ?? (isMap3 ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq);
      const coll = new NodeClass(ctx.schema);
      coll.flow = true;
      const atRoot = ctx.atRoot;
      if (atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = fc.offset + fc.start.source.length;
      for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep: sep2, value } = collItem;
        const props = resolveProps.resolveProps(start, {
          flow: fcName,
          indicator: "explicit-key-ind",
          next: key ?? sep2?.[0],
          offset,
          onError,
          parentIndent: fc.indent,
          startOnNewline: false
        });
        if (!props.found) {
          if (!props.anchor && !props.tag && !sep2 && !value) {
            if (i === 0 && props.comma)
              onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
            else if (i < fc.items.length - 1)
              onError(props.start, "UNEXPECTED_TOKEN", `Unexpected empty item in ${fcName}`);
            if (props.comment) {
              if (coll.comment)
                coll.comment += "\n" + props.comment;
              else
                coll.comment = props.comment;
            }
            offset = props.end;
            continue;
          }
          if (!isMap3 && ctx.options.strict && utilContainsNewline.containsNewline(key))
            onError(
              key,
              // checked by containsNewline()
              "MULTILINE_IMPLICIT_KEY",
              "Implicit keys of flow sequence pairs need to be on a single line"
            );
        }
        if (i === 0) {
          if (props.comma)
            onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
        } else {
          if (!props.comma)
            onError(props.start, "MISSING_CHAR", `Missing , between ${fcName} items`);
          if (props.comment) {
            let prevItemComment = "";
            loop: for (const st of start) {
              switch (st.type) {
                case "comma":
                case "space":
                  break;
                case "comment":
                  prevItemComment = st.source.substring(1);
                  break loop;
                default:
                  break loop;
              }
            }
            if (prevItemComment) {
              let prev = coll.items[coll.items.length - 1];
              if (identity.isPair(prev))
                prev = prev.value ?? prev.key;
              if (prev.comment)
                prev.comment += "\n" + prevItemComment;
              else
                prev.comment = prevItemComment;
              props.comment = props.comment.substring(prevItemComment.length + 1);
            }
          }
        }
        if (!isMap3 && !sep2 && !props.found) {
          const valueNode = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, sep2, null, props, onError);
          coll.items.push(valueNode);
          offset = valueNode.range[2];
          if (isBlock(value))
            onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
        } else {
          ctx.atKey = true;
          const keyStart = props.end;
          const keyNode2 = key ? composeNode(ctx, key, props, onError) : composeEmptyNode(ctx, keyStart, start, null, props, onError);
          if (isBlock(key))
            onError(keyNode2.range, "BLOCK_IN_FLOW", blockMsg);
          ctx.atKey = false;
          const valueProps = resolveProps.resolveProps(sep2 ?? [], {
            flow: fcName,
            indicator: "map-value-ind",
            next: value,
            offset: keyNode2.range[2],
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
          });
          if (valueProps.found) {
            if (!isMap3 && !props.found && ctx.options.strict) {
              if (sep2)
                for (const st of sep2) {
                  if (st === valueProps.found)
                    break;
                  if (st.type === "newline") {
                    onError(st, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line");
                    break;
                  }
                }
              if (props.start < valueProps.found.offset - 1024)
                onError(valueProps.found, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key");
            }
          } else if (value) {
            if ("source" in value && value.source?.[0] === ":")
              onError(value, "MISSING_CHAR", `Missing space after : in ${fcName}`);
            else
              onError(valueProps.start, "MISSING_CHAR", `Missing , or : between ${fcName} items`);
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : valueProps.found ? composeEmptyNode(ctx, valueProps.end, sep2, null, valueProps, onError) : null;
          if (valueNode) {
            if (isBlock(value))
              onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
          } else if (valueProps.comment) {
            if (keyNode2.comment)
              keyNode2.comment += "\n" + valueProps.comment;
            else
              keyNode2.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode2, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          if (isMap3) {
            const map = coll;
            if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode2))
              onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
            map.items.push(pair);
          } else {
            const map = new YAMLMap.YAMLMap(ctx.schema);
            map.flow = true;
            map.items.push(pair);
            const endRange = (valueNode ?? keyNode2).range;
            map.range = [keyNode2.range[0], endRange[1], endRange[2]];
            coll.items.push(map);
          }
          offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
      }
      const expectedEnd = isMap3 ? "}" : "]";
      const [ce, ...ee] = fc.end;
      let cePos = offset;
      if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
      else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot ? `${name} must end with a ${expectedEnd}` : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? "MISSING_CHAR" : "BAD_INDENT", msg);
        if (ce && ce.source.length !== 1)
          ee.unshift(ce);
      }
      if (ee.length > 0) {
        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
          if (coll.comment)
            coll.comment += "\n" + end.comment;
          else
            coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
      } else {
        coll.range = [fc.offset, cePos, cePos];
      }
      return coll;
    }
    exports.resolveFlowCollection = resolveFlowCollection;
  }
});

// node_modules/yaml/dist/compose/compose-collection.js
var require_compose_collection = __commonJS({
  "node_modules/yaml/dist/compose/compose-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveBlockMap = require_resolve_block_map();
    var resolveBlockSeq = require_resolve_block_seq();
    var resolveFlowCollection = require_resolve_flow_collection();
    function resolveCollection(CN, ctx, token, onError, tagName, tag) {
      const coll = token.type === "block-map" ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag) : token.type === "block-seq" ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag) : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
      const Coll = coll.constructor;
      if (tagName === "!" || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
      }
      if (tagName)
        coll.tag = tagName;
      return coll;
    }
    function composeCollection(CN, ctx, token, props, onError) {
      const tagToken = props.tag;
      const tagName = !tagToken ? null : ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg));
      if (token.type === "block-seq") {
        const { anchor, newlineAfterProp: nl } = props;
        const lastProp = anchor && tagToken ? anchor.offset > tagToken.offset ? anchor : tagToken : anchor ?? tagToken;
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
          const message = "Missing newline after block sequence props";
          onError(lastProp, "MISSING_CHAR", message);
        }
      }
      const expType = token.type === "block-map" ? "map" : token.type === "block-seq" ? "seq" : token.start.source === "{" ? "map" : "seq";
      if (!tagToken || !tagName || tagName === "!" || tagName === YAMLMap.YAMLMap.tagName && expType === "map" || tagName === YAMLSeq.YAMLSeq.tagName && expType === "seq") {
        return resolveCollection(CN, ctx, token, onError, tagName);
      }
      let tag = ctx.schema.tags.find((t) => t.tag === tagName && t.collection === expType);
      if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
          ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
          tag = kt;
        } else {
          if (kt) {
            onError(tagToken, "BAD_COLLECTION_TYPE", `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? "scalar"}`, true);
          } else {
            onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, true);
          }
          return resolveCollection(CN, ctx, token, onError, tagName);
        }
      }
      const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
      const res = tag.resolve?.(coll, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg), ctx.options) ?? coll;
      const node = identity.isNode(res) ? res : new Scalar.Scalar(res);
      node.range = coll.range;
      node.tag = tagName;
      if (tag?.format)
        node.format = tag.format;
      return node;
    }
    exports.composeCollection = composeCollection;
  }
});

// node_modules/yaml/dist/compose/resolve-block-scalar.js
var require_resolve_block_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function resolveBlockScalar(ctx, scalar, onError) {
      const start = scalar.offset;
      const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
      if (!header)
        return { value: "", type: null, comment: "", range: [start, start, start] };
      const type = header.mode === ">" ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
      const lines = scalar.source ? splitLines(scalar.source) : [];
      let chompStart = lines.length;
      for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === "" || content === "\r")
          chompStart = i;
        else
          break;
      }
      if (chompStart === 0) {
        const value2 = header.chomp === "+" && lines.length > 0 ? "\n".repeat(Math.max(1, lines.length - 1)) : "";
        let end2 = start + header.length;
        if (scalar.source)
          end2 += scalar.source.length;
        return { value: value2, type, comment: header.comment, range: [start, end2, end2] };
      }
      let trimIndent = scalar.indent + header.indent;
      let offset = scalar.offset + header.length;
      let contentStart = 0;
      for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === "" || content === "\r") {
          if (header.indent === 0 && indent.length > trimIndent)
            trimIndent = indent.length;
        } else {
          if (indent.length < trimIndent) {
            const message = "Block scalars with more-indented leading empty lines must use an explicit indentation indicator";
            onError(offset + indent.length, "MISSING_CHAR", message);
          }
          if (header.indent === 0)
            trimIndent = indent.length;
          contentStart = i;
          if (trimIndent === 0 && !ctx.atRoot) {
            const message = "Block scalar values in collections must be indented";
            onError(offset, "BAD_INDENT", message);
          }
          break;
        }
        offset += indent.length + content.length + 1;
      }
      for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
          chompStart = i + 1;
      }
      let value = "";
      let sep2 = "";
      let prevMoreIndented = false;
      for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + "\n";
      for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === "\r";
        if (crlf)
          content = content.slice(0, -1);
        if (content && indent.length < trimIndent) {
          const src = header.indent ? "explicit indentation indicator" : "first line";
          const message = `Block scalar lines must not be less indented than their ${src}`;
          onError(offset - content.length - (crlf ? 2 : 1), "BAD_INDENT", message);
          indent = "";
        }
        if (type === Scalar.Scalar.BLOCK_LITERAL) {
          value += sep2 + indent.slice(trimIndent) + content;
          sep2 = "\n";
        } else if (indent.length > trimIndent || content[0] === "	") {
          if (sep2 === " ")
            sep2 = "\n";
          else if (!prevMoreIndented && sep2 === "\n")
            sep2 = "\n\n";
          value += sep2 + indent.slice(trimIndent) + content;
          sep2 = "\n";
          prevMoreIndented = true;
        } else if (content === "") {
          if (sep2 === "\n")
            value += "\n";
          else
            sep2 = "\n";
        } else {
          value += sep2 + content;
          sep2 = " ";
          prevMoreIndented = false;
        }
      }
      switch (header.chomp) {
        case "-":
          break;
        case "+":
          for (let i = chompStart; i < lines.length; ++i)
            value += "\n" + lines[i][0].slice(trimIndent);
          if (value[value.length - 1] !== "\n")
            value += "\n";
          break;
        default:
          value += "\n";
      }
      const end = start + header.length + scalar.source.length;
      return { value, type, comment: header.comment, range: [start, end, end] };
    }
    function parseBlockScalarHeader({ offset, props }, strict, onError) {
      if (props[0].type !== "block-scalar-header") {
        onError(props[0], "IMPOSSIBLE", "Block scalar header not found");
        return null;
      }
      const { source } = props[0];
      const mode = source[0];
      let indent = 0;
      let chomp = "";
      let error2 = -1;
      for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === "-" || ch === "+"))
          chomp = ch;
        else {
          const n = Number(ch);
          if (!indent && n)
            indent = n;
          else if (error2 === -1)
            error2 = offset + i;
        }
      }
      if (error2 !== -1)
        onError(error2, "UNEXPECTED_TOKEN", `Block scalar header includes extra characters: ${source}`);
      let hasSpace = false;
      let comment = "";
      let length = source.length;
      for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
          case "space":
            hasSpace = true;
          // fallthrough
          case "newline":
            length += token.source.length;
            break;
          case "comment":
            if (strict && !hasSpace) {
              const message = "Comments must be separated from other tokens by white space characters";
              onError(token, "MISSING_CHAR", message);
            }
            length += token.source.length;
            comment = token.source.substring(1);
            break;
          case "error":
            onError(token, "UNEXPECTED_TOKEN", token.message);
            length += token.source.length;
            break;
          /* istanbul ignore next should not happen */
          default: {
            const message = `Unexpected token in block scalar header: ${token.type}`;
            onError(token, "UNEXPECTED_TOKEN", message);
            const ts = token.source;
            if (ts && typeof ts === "string")
              length += ts.length;
          }
        }
      }
      return { mode, indent, chomp, comment, length };
    }
    function splitLines(source) {
      const split = source.split(/\n( *)/);
      const first = split[0];
      const m = first.match(/^( *)/);
      const line0 = m?.[1] ? [m[1], first.slice(m[1].length)] : ["", first];
      const lines = [line0];
      for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
      return lines;
    }
    exports.resolveBlockScalar = resolveBlockScalar;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-scalar.js
var require_resolve_flow_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var resolveEnd = require_resolve_end();
    function resolveFlowScalar(scalar, strict, onError) {
      const { offset, type, source, end } = scalar;
      let _type;
      let value;
      const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
      switch (type) {
        case "scalar":
          _type = Scalar.Scalar.PLAIN;
          value = plainValue(source, _onError);
          break;
        case "single-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_SINGLE;
          value = singleQuotedValue(source, _onError);
          break;
        case "double-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_DOUBLE;
          value = doubleQuotedValue(source, _onError);
          break;
        /* istanbul ignore next should not happen */
        default:
          onError(scalar, "UNEXPECTED_TOKEN", `Expected a flow scalar value, but found: ${type}`);
          return {
            value: "",
            type: null,
            comment: "",
            range: [offset, offset + source.length, offset + source.length]
          };
      }
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
      return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
      };
    }
    function plainValue(source, onError) {
      let badChar = "";
      switch (source[0]) {
        /* istanbul ignore next should not happen */
        case "	":
          badChar = "a tab character";
          break;
        case ",":
          badChar = "flow indicator character ,";
          break;
        case "%":
          badChar = "directive indicator character %";
          break;
        case "|":
        case ">": {
          badChar = `block scalar indicator ${source[0]}`;
          break;
        }
        case "@":
        case "`": {
          badChar = `reserved character ${source[0]}`;
          break;
        }
      }
      if (badChar)
        onError(0, "BAD_SCALAR_START", `Plain value cannot start with ${badChar}`);
      return unfoldLines(source);
    }
    function singleQuotedValue(source, onError) {
      if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, "MISSING_CHAR", "Missing closing 'quote");
      return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
    }
    function unfoldLines(source) {
      const line = /(.*?)\r?\n/sy;
      let match = line.exec(source);
      if (!match)
        return source;
      let trimEnd, trimBoth;
      try {
        trimEnd = new RegExp("(?<![ 	])[ 	]+$");
        trimBoth = new RegExp("^[ 	]+|(?<![ 	])[ 	]+$", "g");
      } catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
      }
      let res = match[1].replace(trimEnd, "");
      let sep2 = " ";
      let pos = line.lastIndex;
      while (match = line.exec(source)) {
        const lm = match[1].replace(trimBoth, "");
        if (lm === "") {
          if (sep2 === "\n")
            res += sep2;
          else
            sep2 = "\n";
        } else {
          res += sep2 + lm;
          sep2 = " ";
        }
        pos = line.lastIndex;
      }
      const last = /[ \t]*(.*)/sy;
      last.lastIndex = pos;
      match = last.exec(source);
      return res + sep2 + (match?.[1] ?? "");
    }
    function doubleQuotedValue(source, onError) {
      let res = "";
      for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === "\r" && source[i + 1] === "\n")
          continue;
        if (ch === "\n") {
          const { fold, offset } = foldNewline(source, i);
          res += fold;
          i = offset;
        } else if (ch === "\\") {
          let next = source[++i];
          const cc = escapeCodes[next];
          if (cc)
            res += cc;
          else if (next === "\n") {
            next = source[i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "\r" && source[i + 1] === "\n") {
            next = source[++i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "x" || next === "u" || next === "U") {
            const length = next === "x" ? 2 : next === "u" ? 4 : 8;
            res += parseCharCode(source, i + 1, length, onError);
            i += length;
          } else {
            const raw = source.substr(i - 1, 2);
            onError(i - 1, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
            res += raw;
          }
        } else if (ch === " " || ch === "	") {
          const wsStart = i;
          let next = source[i + 1];
          while (next === " " || next === "	")
            next = source[++i + 1];
          if (next !== "\n" && !(next === "\r" && source[i + 2] === "\n"))
            res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        } else {
          res += ch;
        }
      }
      if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, "MISSING_CHAR", 'Missing closing "quote');
      return res;
    }
    function foldNewline(source, offset) {
      let fold = "";
      let ch = source[offset + 1];
      while (ch === " " || ch === "	" || ch === "\n" || ch === "\r") {
        if (ch === "\r" && source[offset + 2] !== "\n")
          break;
        if (ch === "\n")
          fold += "\n";
        offset += 1;
        ch = source[offset + 1];
      }
      if (!fold)
        fold = " ";
      return { fold, offset };
    }
    var escapeCodes = {
      "0": "\0",
      // null character
      a: "\x07",
      // bell character
      b: "\b",
      // backspace
      e: "\x1B",
      // escape character
      f: "\f",
      // form feed
      n: "\n",
      // line feed
      r: "\r",
      // carriage return
      t: "	",
      // horizontal tab
      v: "\v",
      // vertical tab
      N: "\x85",
      // Unicode next line
      _: "\xA0",
      // Unicode non-breaking space
      L: "\u2028",
      // Unicode line separator
      P: "\u2029",
      // Unicode paragraph separator
      " ": " ",
      '"': '"',
      "/": "/",
      "\\": "\\",
      "	": "	"
    };
    function parseCharCode(source, offset, length, onError) {
      const cc = source.substr(offset, length);
      const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
      const code = ok ? parseInt(cc, 16) : NaN;
      try {
        return String.fromCodePoint(code);
      } catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
        return raw;
      }
    }
    exports.resolveFlowScalar = resolveFlowScalar;
  }
});

// node_modules/yaml/dist/compose/compose-scalar.js
var require_compose_scalar = __commonJS({
  "node_modules/yaml/dist/compose/compose-scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    function composeScalar(ctx, token, tagToken, onError) {
      const { value, type, comment, range } = token.type === "block-scalar" ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError) : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
      const tagName = tagToken ? ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg)) : null;
      let tag;
      if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[identity.SCALAR];
      } else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
      else if (token.type === "scalar")
        tag = findScalarTagByTest(ctx, value, token, onError);
      else
        tag = ctx.schema[identity.SCALAR];
      let scalar;
      try {
        const res = tag.resolve(value, (msg) => onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg), ctx.options);
        scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
      } catch (error2) {
        const msg = error2 instanceof Error ? error2.message : String(error2);
        onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg);
        scalar = new Scalar.Scalar(value);
      }
      scalar.range = range;
      scalar.source = value;
      if (type)
        scalar.type = type;
      if (tagName)
        scalar.tag = tagName;
      if (tag.format)
        scalar.format = tag.format;
      if (comment)
        scalar.comment = comment;
      return scalar;
    }
    function findScalarTagByName(schema, value, tagName, tagToken, onError) {
      if (tagName === "!")
        return schema[identity.SCALAR];
      const matchWithTest = [];
      for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
          if (tag.default && tag.test)
            matchWithTest.push(tag);
          else
            return tag;
        }
      }
      for (const tag of matchWithTest)
        if (tag.test?.test(value))
          return tag;
      const kt = schema.knownTags[tagName];
      if (kt && !kt.collection) {
        schema.tags.push(Object.assign({}, kt, { default: false, test: void 0 }));
        return kt;
      }
      onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, tagName !== "tag:yaml.org,2002:str");
      return schema[identity.SCALAR];
    }
    function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
      const tag = schema.tags.find((tag2) => (tag2.default === true || atKey && tag2.default === "key") && tag2.test?.test(value)) || schema[identity.SCALAR];
      if (schema.compat) {
        const compat = schema.compat.find((tag2) => tag2.default && tag2.test?.test(value)) ?? schema[identity.SCALAR];
        if (tag.tag !== compat.tag) {
          const ts = directives.tagString(tag.tag);
          const cs = directives.tagString(compat.tag);
          const msg = `Value may be parsed as either ${ts} or ${cs}`;
          onError(token, "TAG_RESOLVE_FAILED", msg, true);
        }
      }
      return tag;
    }
    exports.composeScalar = composeScalar;
  }
});

// node_modules/yaml/dist/compose/util-empty-scalar-position.js
var require_util_empty_scalar_position = __commonJS({
  "node_modules/yaml/dist/compose/util-empty-scalar-position.js"(exports) {
    "use strict";
    function emptyScalarPosition(offset, before, pos) {
      if (before) {
        pos ?? (pos = before.length);
        for (let i = pos - 1; i >= 0; --i) {
          let st = before[i];
          switch (st.type) {
            case "space":
            case "comment":
            case "newline":
              offset -= st.source.length;
              continue;
          }
          st = before[++i];
          while (st?.type === "space") {
            offset += st.source.length;
            st = before[++i];
          }
          break;
        }
      }
      return offset;
    }
    exports.emptyScalarPosition = emptyScalarPosition;
  }
});

// node_modules/yaml/dist/compose/compose-node.js
var require_compose_node = __commonJS({
  "node_modules/yaml/dist/compose/compose-node.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var composeCollection = require_compose_collection();
    var composeScalar = require_compose_scalar();
    var resolveEnd = require_resolve_end();
    var utilEmptyScalarPosition = require_util_empty_scalar_position();
    var CN = { composeNode, composeEmptyNode };
    function composeNode(ctx, token, props, onError) {
      const atKey = ctx.atKey;
      const { spaceBefore, comment, anchor, tag } = props;
      let node;
      let isSrcToken = true;
      switch (token.type) {
        case "alias":
          node = composeAlias(ctx, token, onError);
          if (anchor || tag)
            onError(token, "ALIAS_PROPS", "An alias node must not specify any properties");
          break;
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "block-scalar":
          node = composeScalar.composeScalar(ctx, token, tag, onError);
          if (anchor)
            node.anchor = anchor.source.substring(1);
          break;
        case "block-map":
        case "block-seq":
        case "flow-collection":
          try {
            node = composeCollection.composeCollection(CN, ctx, token, props, onError);
            if (anchor)
              node.anchor = anchor.source.substring(1);
          } catch (error2) {
            const message = error2 instanceof Error ? error2.message : String(error2);
            onError(token, "RESOURCE_EXHAUSTION", message);
          }
          break;
        default: {
          const message = token.type === "error" ? token.message : `Unsupported token (type: ${token.type})`;
          onError(token, "UNEXPECTED_TOKEN", message);
          isSrcToken = false;
        }
      }
      node ?? (node = composeEmptyNode(ctx, token.offset, void 0, null, props, onError));
      if (anchor && node.anchor === "")
        onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
      if (atKey && ctx.options.stringKeys && (!identity.isScalar(node) || typeof node.value !== "string" || node.tag && node.tag !== "tag:yaml.org,2002:str")) {
        const msg = "With stringKeys, all keys must be strings";
        onError(tag ?? token, "NON_STRING_KEY", msg);
      }
      if (spaceBefore)
        node.spaceBefore = true;
      if (comment) {
        if (token.type === "scalar" && token.source === "")
          node.comment = comment;
        else
          node.commentBefore = comment;
      }
      if (ctx.options.keepSourceTokens && isSrcToken)
        node.srcToken = token;
      return node;
    }
    function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
      const token = {
        type: "scalar",
        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
        indent: -1,
        source: ""
      };
      const node = composeScalar.composeScalar(ctx, token, tag, onError);
      if (anchor) {
        node.anchor = anchor.source.substring(1);
        if (node.anchor === "")
          onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
      }
      if (spaceBefore)
        node.spaceBefore = true;
      if (comment) {
        node.comment = comment;
        node.range[2] = end;
      }
      return node;
    }
    function composeAlias({ options }, { offset, source, end }, onError) {
      const alias = new Alias.Alias(source.substring(1));
      if (alias.source === "")
        onError(offset, "BAD_ALIAS", "Alias cannot be an empty string");
      if (alias.source.endsWith(":"))
        onError(offset + source.length - 1, "BAD_ALIAS", "Alias ending in : is ambiguous", true);
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
      alias.range = [offset, valueEnd, re.offset];
      if (re.comment)
        alias.comment = re.comment;
      return alias;
    }
    exports.composeEmptyNode = composeEmptyNode;
    exports.composeNode = composeNode;
  }
});

// node_modules/yaml/dist/compose/compose-doc.js
var require_compose_doc = __commonJS({
  "node_modules/yaml/dist/compose/compose-doc.js"(exports) {
    "use strict";
    var Document = require_Document();
    var composeNode = require_compose_node();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    function composeDoc(options, directives, { offset, start, value, end }, onError) {
      const opts = Object.assign({ _directives: directives }, options);
      const doc = new Document.Document(void 0, opts);
      const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
      };
      const props = resolveProps.resolveProps(start, {
        indicator: "doc-start",
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
      });
      if (props.found) {
        doc.directives.docStart = true;
        if (value && (value.type === "block-map" || value.type === "block-seq") && !props.hasNewline)
          onError(props.end, "MISSING_CHAR", "Block collection cannot start on same line with directives-end marker");
      }
      doc.contents = value ? composeNode.composeNode(ctx, value, props, onError) : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
      const contentEnd = doc.contents.range[2];
      const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
      if (re.comment)
        doc.comment = re.comment;
      doc.range = [offset, contentEnd, re.offset];
      return doc;
    }
    exports.composeDoc = composeDoc;
  }
});

// node_modules/yaml/dist/compose/composer.js
var require_composer = __commonJS({
  "node_modules/yaml/dist/compose/composer.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var directives = require_directives();
    var Document = require_Document();
    var errors = require_errors();
    var identity = require_identity();
    var composeDoc = require_compose_doc();
    var resolveEnd = require_resolve_end();
    function getErrorPos(src) {
      if (typeof src === "number")
        return [src, src + 1];
      if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
      const { offset, source } = src;
      return [offset, offset + (typeof source === "string" ? source.length : 1)];
    }
    function parsePrelude(prelude) {
      let comment = "";
      let atComment = false;
      let afterEmptyLine = false;
      for (let i = 0; i < prelude.length; ++i) {
        const source = prelude[i];
        switch (source[0]) {
          case "#":
            comment += (comment === "" ? "" : afterEmptyLine ? "\n\n" : "\n") + (source.substring(1) || " ");
            atComment = true;
            afterEmptyLine = false;
            break;
          case "%":
            if (prelude[i + 1]?.[0] !== "#")
              i += 1;
            atComment = false;
            break;
          default:
            if (!atComment)
              afterEmptyLine = true;
            atComment = false;
        }
      }
      return { comment, afterEmptyLine };
    }
    var Composer = class {
      constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code, message, warning2) => {
          const pos = getErrorPos(source);
          if (warning2)
            this.warnings.push(new errors.YAMLWarning(pos, code, message));
          else
            this.errors.push(new errors.YAMLParseError(pos, code, message));
        };
        this.directives = new directives.Directives({ version: options.version || "1.2" });
        this.options = options;
      }
      decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        if (comment) {
          const dc = doc.contents;
          if (afterDoc) {
            doc.comment = doc.comment ? `${doc.comment}
${comment}` : comment;
          } else if (afterEmptyLine || doc.directives.docStart || !dc) {
            doc.commentBefore = comment;
          } else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
            let it = dc.items[0];
            if (identity.isPair(it))
              it = it.key;
            const cb = it.commentBefore;
            it.commentBefore = cb ? `${comment}
${cb}` : comment;
          } else {
            const cb = dc.commentBefore;
            dc.commentBefore = cb ? `${comment}
${cb}` : comment;
          }
        }
        if (afterDoc) {
          for (let i = 0; i < this.errors.length; ++i)
            doc.errors.push(this.errors[i]);
          for (let i = 0; i < this.warnings.length; ++i)
            doc.warnings.push(this.warnings[i]);
        } else {
          doc.errors = this.errors;
          doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
      }
      /**
       * Current stream status information.
       *
       * Mostly useful at the end of input for an empty stream.
       */
      streamInfo() {
        return {
          comment: parsePrelude(this.prelude).comment,
          directives: this.directives,
          errors: this.errors,
          warnings: this.warnings
        };
      }
      /**
       * Compose tokens into documents.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
          yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
      }
      /** Advance the composer by one CST token. */
      *next(token) {
        if (node_process.env.LOG_STREAM)
          console.dir(token, { depth: null });
        switch (token.type) {
          case "directive":
            this.directives.add(token.source, (offset, message, warning2) => {
              const pos = getErrorPos(token);
              pos[0] += offset;
              this.onError(pos, "BAD_DIRECTIVE", message, warning2);
            });
            this.prelude.push(token.source);
            this.atDirectives = true;
            break;
          case "document": {
            const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
            if (this.atDirectives && !doc.directives.docStart)
              this.onError(token, "MISSING_CHAR", "Missing directives-end/doc-start indicator line");
            this.decorate(doc, false);
            if (this.doc)
              yield this.doc;
            this.doc = doc;
            this.atDirectives = false;
            break;
          }
          case "byte-order-mark":
          case "space":
            break;
          case "comment":
          case "newline":
            this.prelude.push(token.source);
            break;
          case "error": {
            const msg = token.source ? `${token.message}: ${JSON.stringify(token.source)}` : token.message;
            const error2 = new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg);
            if (this.atDirectives || !this.doc)
              this.errors.push(error2);
            else
              this.doc.errors.push(error2);
            break;
          }
          case "doc-end": {
            if (!this.doc) {
              const msg = "Unexpected doc-end without preceding document";
              this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg));
              break;
            }
            this.doc.directives.docEnd = true;
            const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
            this.decorate(this.doc, true);
            if (end.comment) {
              const dc = this.doc.comment;
              this.doc.comment = dc ? `${dc}
${end.comment}` : end.comment;
            }
            this.doc.range[2] = end.offset;
            break;
          }
          default:
            this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", `Unsupported token ${token.type}`));
        }
      }
      /**
       * Call at end of input to yield any remaining document.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
          this.decorate(this.doc, true);
          yield this.doc;
          this.doc = null;
        } else if (forceDoc) {
          const opts = Object.assign({ _directives: this.directives }, this.options);
          const doc = new Document.Document(void 0, opts);
          if (this.atDirectives)
            this.onError(endOffset, "MISSING_CHAR", "Missing directives-end indicator line");
          doc.range = [0, endOffset, endOffset];
          this.decorate(doc, false);
          yield doc;
        }
      }
    };
    exports.Composer = Composer;
  }
});

// node_modules/yaml/dist/parse/cst-scalar.js
var require_cst_scalar = __commonJS({
  "node_modules/yaml/dist/parse/cst-scalar.js"(exports) {
    "use strict";
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    var errors = require_errors();
    var stringifyString = require_stringifyString();
    function resolveAsScalar(token, strict = true, onError) {
      if (token) {
        const _onError = (pos, code, message) => {
          const offset = typeof pos === "number" ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
          if (onError)
            onError(offset, code, message);
          else
            throw new errors.YAMLParseError([offset, offset + 1], code, message);
        };
        switch (token.type) {
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
          case "block-scalar":
            return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
        }
      }
      return null;
    }
    function createScalarToken(value, context) {
      const { implicitKey = false, indent, inFlow = false, offset = -1, type = "PLAIN" } = context;
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey,
        indent: indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      const end = context.end ?? [
        { type: "newline", offset: -1, indent, source: "\n" }
      ];
      switch (source[0]) {
        case "|":
        case ">": {
          const he = source.indexOf("\n");
          const head = source.substring(0, he);
          const body = source.substring(he + 1) + "\n";
          const props = [
            { type: "block-scalar-header", offset, indent, source: head }
          ];
          if (!addEndtoBlockProps(props, end))
            props.push({ type: "newline", offset: -1, indent, source: "\n" });
          return { type: "block-scalar", offset, indent, props, source: body };
        }
        case '"':
          return { type: "double-quoted-scalar", offset, indent, source, end };
        case "'":
          return { type: "single-quoted-scalar", offset, indent, source, end };
        default:
          return { type: "scalar", offset, indent, source, end };
      }
    }
    function setScalarValue(token, value, context = {}) {
      let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
      let indent = "indent" in token ? token.indent : null;
      if (afterKey && typeof indent === "number")
        indent += 2;
      if (!type)
        switch (token.type) {
          case "single-quoted-scalar":
            type = "QUOTE_SINGLE";
            break;
          case "double-quoted-scalar":
            type = "QUOTE_DOUBLE";
            break;
          case "block-scalar": {
            const header = token.props[0];
            if (header.type !== "block-scalar-header")
              throw new Error("Invalid block scalar header");
            type = header.source[0] === ">" ? "BLOCK_FOLDED" : "BLOCK_LITERAL";
            break;
          }
          default:
            type = "PLAIN";
        }
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey: implicitKey || indent === null,
        indent: indent !== null && indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      switch (source[0]) {
        case "|":
        case ">":
          setBlockScalarValue(token, source);
          break;
        case '"':
          setFlowScalarValue(token, source, "double-quoted-scalar");
          break;
        case "'":
          setFlowScalarValue(token, source, "single-quoted-scalar");
          break;
        default:
          setFlowScalarValue(token, source, "scalar");
      }
    }
    function setBlockScalarValue(token, source) {
      const he = source.indexOf("\n");
      const head = source.substring(0, he);
      const body = source.substring(he + 1) + "\n";
      if (token.type === "block-scalar") {
        const header = token.props[0];
        if (header.type !== "block-scalar-header")
          throw new Error("Invalid block scalar header");
        header.source = head;
        token.source = body;
      } else {
        const { offset } = token;
        const indent = "indent" in token ? token.indent : -1;
        const props = [
          { type: "block-scalar-header", offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, "end" in token ? token.end : void 0))
          props.push({ type: "newline", offset: -1, indent, source: "\n" });
        for (const key of Object.keys(token))
          if (key !== "type" && key !== "offset")
            delete token[key];
        Object.assign(token, { type: "block-scalar", indent, props, source: body });
      }
    }
    function addEndtoBlockProps(props, end) {
      if (end)
        for (const st of end)
          switch (st.type) {
            case "space":
            case "comment":
              props.push(st);
              break;
            case "newline":
              props.push(st);
              return true;
          }
      return false;
    }
    function setFlowScalarValue(token, source, type) {
      switch (token.type) {
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          token.type = type;
          token.source = source;
          break;
        case "block-scalar": {
          const end = token.props.slice(1);
          let oa = source.length;
          if (token.props[0].type === "block-scalar-header")
            oa -= token.props[0].source.length;
          for (const tok of end)
            tok.offset += oa;
          delete token.props;
          Object.assign(token, { type, source, end });
          break;
        }
        case "block-map":
        case "block-seq": {
          const offset = token.offset + source.length;
          const nl = { type: "newline", offset, indent: token.indent, source: "\n" };
          delete token.items;
          Object.assign(token, { type, source, end: [nl] });
          break;
        }
        default: {
          const indent = "indent" in token ? token.indent : -1;
          const end = "end" in token && Array.isArray(token.end) ? token.end.filter((st) => st.type === "space" || st.type === "comment" || st.type === "newline") : [];
          for (const key of Object.keys(token))
            if (key !== "type" && key !== "offset")
              delete token[key];
          Object.assign(token, { type, indent, source, end });
        }
      }
    }
    exports.createScalarToken = createScalarToken;
    exports.resolveAsScalar = resolveAsScalar;
    exports.setScalarValue = setScalarValue;
  }
});

// node_modules/yaml/dist/parse/cst-stringify.js
var require_cst_stringify = __commonJS({
  "node_modules/yaml/dist/parse/cst-stringify.js"(exports) {
    "use strict";
    var stringify2 = (cst) => "type" in cst ? stringifyToken(cst) : stringifyItem(cst);
    function stringifyToken(token) {
      switch (token.type) {
        case "block-scalar": {
          let res = "";
          for (const tok of token.props)
            res += stringifyToken(tok);
          return res + token.source;
        }
        case "block-map":
        case "block-seq": {
          let res = "";
          for (const item of token.items)
            res += stringifyItem(item);
          return res;
        }
        case "flow-collection": {
          let res = token.start.source;
          for (const item of token.items)
            res += stringifyItem(item);
          for (const st of token.end)
            res += st.source;
          return res;
        }
        case "document": {
          let res = stringifyItem(token);
          if (token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
        default: {
          let res = token.source;
          if ("end" in token && token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
      }
    }
    function stringifyItem({ start, key, sep: sep2, value }) {
      let res = "";
      for (const st of start)
        res += st.source;
      if (key)
        res += stringifyToken(key);
      if (sep2)
        for (const st of sep2)
          res += st.source;
      if (value)
        res += stringifyToken(value);
      return res;
    }
    exports.stringify = stringify2;
  }
});

// node_modules/yaml/dist/parse/cst-visit.js
var require_cst_visit = __commonJS({
  "node_modules/yaml/dist/parse/cst-visit.js"(exports) {
    "use strict";
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove item");
    function visit(cst, visitor) {
      if ("type" in cst && cst.type === "document")
        cst = { start: cst.start, value: cst.value };
      _visit(Object.freeze([]), cst, visitor);
    }
    visit.BREAK = BREAK;
    visit.SKIP = SKIP;
    visit.REMOVE = REMOVE;
    visit.itemAtPath = (cst, path) => {
      let item = cst;
      for (const [field, index] of path) {
        const tok = item?.[field];
        if (tok && "items" in tok) {
          item = tok.items[index];
        } else
          return void 0;
      }
      return item;
    };
    visit.parentCollection = (cst, path) => {
      const parent = visit.itemAtPath(cst, path.slice(0, -1));
      const field = path[path.length - 1][0];
      const coll = parent?.[field];
      if (coll && "items" in coll)
        return coll;
      throw new Error("Parent collection not found");
    };
    function _visit(path, item, visitor) {
      let ctrl = visitor(item, path);
      if (typeof ctrl === "symbol")
        return ctrl;
      for (const field of ["key", "value"]) {
        const token = item[field];
        if (token && "items" in token) {
          for (let i = 0; i < token.items.length; ++i) {
            const ci = _visit(Object.freeze(path.concat([[field, i]])), token.items[i], visitor);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              token.items.splice(i, 1);
              i -= 1;
            }
          }
          if (typeof ctrl === "function" && field === "key")
            ctrl = ctrl(item, path);
        }
      }
      return typeof ctrl === "function" ? ctrl(item, path) : ctrl;
    }
    exports.visit = visit;
  }
});

// node_modules/yaml/dist/parse/cst.js
var require_cst = __commonJS({
  "node_modules/yaml/dist/parse/cst.js"(exports) {
    "use strict";
    var cstScalar = require_cst_scalar();
    var cstStringify = require_cst_stringify();
    var cstVisit = require_cst_visit();
    var BOM = "\uFEFF";
    var DOCUMENT = "";
    var FLOW_END = "";
    var SCALAR = "";
    var isCollection = (token) => !!token && "items" in token;
    var isScalar3 = (token) => !!token && (token.type === "scalar" || token.type === "single-quoted-scalar" || token.type === "double-quoted-scalar" || token.type === "block-scalar");
    function prettyToken(token) {
      switch (token) {
        case BOM:
          return "<BOM>";
        case DOCUMENT:
          return "<DOC>";
        case FLOW_END:
          return "<FLOW_END>";
        case SCALAR:
          return "<SCALAR>";
        default:
          return JSON.stringify(token);
      }
    }
    function tokenType(source) {
      switch (source) {
        case BOM:
          return "byte-order-mark";
        case DOCUMENT:
          return "doc-mode";
        case FLOW_END:
          return "flow-error-end";
        case SCALAR:
          return "scalar";
        case "---":
          return "doc-start";
        case "...":
          return "doc-end";
        case "":
        case "\n":
        case "\r\n":
          return "newline";
        case "-":
          return "seq-item-ind";
        case "?":
          return "explicit-key-ind";
        case ":":
          return "map-value-ind";
        case "{":
          return "flow-map-start";
        case "}":
          return "flow-map-end";
        case "[":
          return "flow-seq-start";
        case "]":
          return "flow-seq-end";
        case ",":
          return "comma";
      }
      switch (source[0]) {
        case " ":
        case "	":
          return "space";
        case "#":
          return "comment";
        case "%":
          return "directive-line";
        case "*":
          return "alias";
        case "&":
          return "anchor";
        case "!":
          return "tag";
        case "'":
          return "single-quoted-scalar";
        case '"':
          return "double-quoted-scalar";
        case "|":
        case ">":
          return "block-scalar-header";
      }
      return null;
    }
    exports.createScalarToken = cstScalar.createScalarToken;
    exports.resolveAsScalar = cstScalar.resolveAsScalar;
    exports.setScalarValue = cstScalar.setScalarValue;
    exports.stringify = cstStringify.stringify;
    exports.visit = cstVisit.visit;
    exports.BOM = BOM;
    exports.DOCUMENT = DOCUMENT;
    exports.FLOW_END = FLOW_END;
    exports.SCALAR = SCALAR;
    exports.isCollection = isCollection;
    exports.isScalar = isScalar3;
    exports.prettyToken = prettyToken;
    exports.tokenType = tokenType;
  }
});

// node_modules/yaml/dist/parse/lexer.js
var require_lexer = __commonJS({
  "node_modules/yaml/dist/parse/lexer.js"(exports) {
    "use strict";
    var cst = require_cst();
    function isEmpty(ch) {
      switch (ch) {
        case void 0:
        case " ":
        case "\n":
        case "\r":
        case "	":
          return true;
        default:
          return false;
      }
    }
    var hexDigits = new Set("0123456789ABCDEFabcdef");
    var tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
    var flowIndicatorChars = new Set(",[]{}");
    var invalidAnchorChars = new Set(" ,[]{}\n\r	");
    var isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
    var Lexer = class {
      constructor() {
        this.atEnd = false;
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        this.buffer = "";
        this.flowKey = false;
        this.flowLevel = 0;
        this.indentNext = 0;
        this.indentValue = 0;
        this.lineEndPos = null;
        this.next = null;
        this.pos = 0;
      }
      /**
       * Generate YAML tokens from the `source` string. If `incomplete`,
       * a part of the last line may be left as a buffer for the next call.
       *
       * @returns A generator of lexical tokens
       */
      *lex(source, incomplete = false) {
        if (source) {
          if (typeof source !== "string")
            throw TypeError("source is not a string");
          this.buffer = this.buffer ? this.buffer + source : source;
          this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? "stream";
        while (next && (incomplete || this.hasChars(1)))
          next = yield* this.parseNext(next);
      }
      atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === " " || ch === "	")
          ch = this.buffer[++i];
        if (!ch || ch === "#" || ch === "\n")
          return true;
        if (ch === "\r")
          return this.buffer[i + 1] === "\n";
        return false;
      }
      charAt(n) {
        return this.buffer[this.pos + n];
      }
      continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
          let indent = 0;
          while (ch === " ")
            ch = this.buffer[++indent + offset];
          if (ch === "\r") {
            const next = this.buffer[indent + offset + 1];
            if (next === "\n" || !next && !this.atEnd)
              return offset + indent + 1;
          }
          return ch === "\n" || indent >= this.indentNext || !ch && !this.atEnd ? offset + indent : -1;
        }
        if (ch === "-" || ch === ".") {
          const dt = this.buffer.substr(offset, 3);
          if ((dt === "---" || dt === "...") && isEmpty(this.buffer[offset + 3]))
            return -1;
        }
        return offset;
      }
      getLine() {
        let end = this.lineEndPos;
        if (typeof end !== "number" || end !== -1 && end < this.pos) {
          end = this.buffer.indexOf("\n", this.pos);
          this.lineEndPos = end;
        }
        if (end === -1)
          return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === "\r")
          end -= 1;
        return this.buffer.substring(this.pos, end);
      }
      hasChars(n) {
        return this.pos + n <= this.buffer.length;
      }
      setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
      }
      peek(n) {
        return this.buffer.substr(this.pos, n);
      }
      *parseNext(next) {
        switch (next) {
          case "stream":
            return yield* this.parseStream();
          case "line-start":
            return yield* this.parseLineStart();
          case "block-start":
            return yield* this.parseBlockStart();
          case "doc":
            return yield* this.parseDocument();
          case "flow":
            return yield* this.parseFlowCollection();
          case "quoted-scalar":
            return yield* this.parseQuotedScalar();
          case "block-scalar":
            return yield* this.parseBlockScalar();
          case "plain-scalar":
            return yield* this.parsePlainScalar();
        }
      }
      *parseStream() {
        let line = this.getLine();
        if (line === null)
          return this.setNext("stream");
        if (line[0] === cst.BOM) {
          yield* this.pushCount(1);
          line = line.substring(1);
        }
        if (line[0] === "%") {
          let dirEnd = line.length;
          let cs = line.indexOf("#");
          while (cs !== -1) {
            const ch = line[cs - 1];
            if (ch === " " || ch === "	") {
              dirEnd = cs - 1;
              break;
            } else {
              cs = line.indexOf("#", cs + 1);
            }
          }
          while (true) {
            const ch = line[dirEnd - 1];
            if (ch === " " || ch === "	")
              dirEnd -= 1;
            else
              break;
          }
          const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
          yield* this.pushCount(line.length - n);
          this.pushNewline();
          return "stream";
        }
        if (this.atLineEnd()) {
          const sp = yield* this.pushSpaces(true);
          yield* this.pushCount(line.length - sp);
          yield* this.pushNewline();
          return "stream";
        }
        yield cst.DOCUMENT;
        return yield* this.parseLineStart();
      }
      *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
          return this.setNext("line-start");
        if (ch === "-" || ch === ".") {
          if (!this.atEnd && !this.hasChars(4))
            return this.setNext("line-start");
          const s = this.peek(3);
          if ((s === "---" || s === "...") && isEmpty(this.charAt(3))) {
            yield* this.pushCount(3);
            this.indentValue = 0;
            this.indentNext = 0;
            return s === "---" ? "doc" : "stream";
          }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
          this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
      }
      *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
          return this.setNext("block-start");
        if ((ch0 === "-" || ch0 === "?" || ch0 === ":") && isEmpty(ch1)) {
          const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
          this.indentNext = this.indentValue + 1;
          this.indentValue += n;
          return "block-start";
        }
        return "doc";
      }
      *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
          return this.setNext("doc");
        let n = yield* this.pushIndicators();
        switch (line[n]) {
          case "#":
            yield* this.pushCount(line.length - n);
          // fallthrough
          case void 0:
            yield* this.pushNewline();
            return yield* this.parseLineStart();
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel = 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            return "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "doc";
          case '"':
          case "'":
            return yield* this.parseQuotedScalar();
          case "|":
          case ">":
            n += yield* this.parseBlockScalarHeader();
            n += yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - n);
            yield* this.pushNewline();
            return yield* this.parseBlockScalar();
          default:
            return yield* this.parsePlainScalar();
        }
      }
      *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
          nl = yield* this.pushNewline();
          if (nl > 0) {
            sp = yield* this.pushSpaces(false);
            this.indentValue = indent = sp;
          } else {
            sp = 0;
          }
          sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
          return this.setNext("flow");
        if (indent !== -1 && indent < this.indentNext && line[0] !== "#" || indent === 0 && (line.startsWith("---") || line.startsWith("...")) && isEmpty(line[3])) {
          const atFlowEndMarker = indent === this.indentNext - 1 && this.flowLevel === 1 && (line[0] === "]" || line[0] === "}");
          if (!atFlowEndMarker) {
            this.flowLevel = 0;
            yield cst.FLOW_END;
            return yield* this.parseLineStart();
          }
        }
        let n = 0;
        while (line[n] === ",") {
          n += yield* this.pushCount(1);
          n += yield* this.pushSpaces(true);
          this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
          case void 0:
            return "flow";
          case "#":
            yield* this.pushCount(line.length - n);
            return "flow";
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel += 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            this.flowKey = true;
            this.flowLevel -= 1;
            return this.flowLevel ? "flow" : "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "flow";
          case '"':
          case "'":
            this.flowKey = true;
            return yield* this.parseQuotedScalar();
          case ":": {
            const next = this.charAt(1);
            if (this.flowKey || isEmpty(next) || next === ",") {
              this.flowKey = false;
              yield* this.pushCount(1);
              yield* this.pushSpaces(true);
              return "flow";
            }
          }
          // fallthrough
          default:
            this.flowKey = false;
            return yield* this.parsePlainScalar();
        }
      }
      *parseQuotedScalar() {
        const quote2 = this.charAt(0);
        let end = this.buffer.indexOf(quote2, this.pos + 1);
        if (quote2 === "'") {
          while (end !== -1 && this.buffer[end + 1] === "'")
            end = this.buffer.indexOf("'", end + 2);
        } else {
          while (end !== -1) {
            let n = 0;
            while (this.buffer[end - 1 - n] === "\\")
              n += 1;
            if (n % 2 === 0)
              break;
            end = this.buffer.indexOf('"', end + 1);
          }
        }
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf("\n", this.pos);
        if (nl !== -1) {
          while (nl !== -1) {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = qb.indexOf("\n", cs);
          }
          if (nl !== -1) {
            end = nl - (qb[nl - 1] === "\r" ? 2 : 1);
          }
        }
        if (end === -1) {
          if (!this.atEnd)
            return this.setNext("quoted-scalar");
          end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? "flow" : "doc";
      }
      *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
          const ch = this.buffer[++i];
          if (ch === "+")
            this.blockScalarKeep = true;
          else if (ch > "0" && ch <= "9")
            this.blockScalarIndent = Number(ch) - 1;
          else if (ch !== "-")
            break;
        }
        return yield* this.pushUntil((ch) => isEmpty(ch) || ch === "#");
      }
      *parseBlockScalar() {
        let nl = this.pos - 1;
        let indent = 0;
        let ch;
        loop: for (let i2 = this.pos; ch = this.buffer[i2]; ++i2) {
          switch (ch) {
            case " ":
              indent += 1;
              break;
            case "\n":
              nl = i2;
              indent = 0;
              break;
            case "\r": {
              const next = this.buffer[i2 + 1];
              if (!next && !this.atEnd)
                return this.setNext("block-scalar");
              if (next === "\n")
                break;
            }
            // fallthrough
            default:
              break loop;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("block-scalar");
        if (indent >= this.indentNext) {
          if (this.blockScalarIndent === -1)
            this.indentNext = indent;
          else {
            this.indentNext = this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
          }
          do {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = this.buffer.indexOf("\n", cs);
          } while (nl !== -1);
          if (nl === -1) {
            if (!this.atEnd)
              return this.setNext("block-scalar");
            nl = this.buffer.length;
          }
        }
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === " ")
          ch = this.buffer[++i];
        if (ch === "	") {
          while (ch === "	" || ch === " " || ch === "\r" || ch === "\n")
            ch = this.buffer[++i];
          nl = i - 1;
        } else if (!this.blockScalarKeep) {
          do {
            let i2 = nl - 1;
            let ch2 = this.buffer[i2];
            if (ch2 === "\r")
              ch2 = this.buffer[--i2];
            const lastChar = i2;
            while (ch2 === " ")
              ch2 = this.buffer[--i2];
            if (ch2 === "\n" && i2 >= this.pos && i2 + 1 + indent > lastChar)
              nl = i2;
            else
              break;
          } while (true);
        }
        yield cst.SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
      }
      *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while (ch = this.buffer[++i]) {
          if (ch === ":") {
            const next = this.buffer[i + 1];
            if (isEmpty(next) || inFlow && flowIndicatorChars.has(next))
              break;
            end = i;
          } else if (isEmpty(ch)) {
            let next = this.buffer[i + 1];
            if (ch === "\r") {
              if (next === "\n") {
                i += 1;
                ch = "\n";
                next = this.buffer[i + 1];
              } else
                end = i;
            }
            if (next === "#" || inFlow && flowIndicatorChars.has(next))
              break;
            if (ch === "\n") {
              const cs = this.continueScalar(i + 1);
              if (cs === -1)
                break;
              i = Math.max(i, cs - 2);
            }
          } else {
            if (inFlow && flowIndicatorChars.has(ch))
              break;
            end = i;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("plain-scalar");
        yield cst.SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? "flow" : "doc";
      }
      *pushCount(n) {
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos += n;
          return n;
        }
        return 0;
      }
      *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
          yield s;
          this.pos += s.length;
          return s.length;
        } else if (allowEmpty)
          yield "";
        return 0;
      }
      *pushIndicators() {
        let n = 0;
        loop: while (true) {
          switch (this.charAt(0)) {
            case "!":
              n += yield* this.pushTag();
              n += yield* this.pushSpaces(true);
              continue loop;
            case "&":
              n += yield* this.pushUntil(isNotAnchorChar);
              n += yield* this.pushSpaces(true);
              continue loop;
            case "-":
            // this is an error
            case "?":
            // this is an error outside flow collections
            case ":": {
              const inFlow = this.flowLevel > 0;
              const ch1 = this.charAt(1);
              if (isEmpty(ch1) || inFlow && flowIndicatorChars.has(ch1)) {
                if (!inFlow)
                  this.indentNext = this.indentValue + 1;
                else if (this.flowKey)
                  this.flowKey = false;
                n += yield* this.pushCount(1);
                n += yield* this.pushSpaces(true);
                continue loop;
              }
            }
          }
          break loop;
        }
        return n;
      }
      *pushTag() {
        if (this.charAt(1) === "<") {
          let i = this.pos + 2;
          let ch = this.buffer[i];
          while (!isEmpty(ch) && ch !== ">")
            ch = this.buffer[++i];
          return yield* this.pushToIndex(ch === ">" ? i + 1 : i, false);
        } else {
          let i = this.pos + 1;
          let ch = this.buffer[i];
          while (ch) {
            if (tagChars.has(ch))
              ch = this.buffer[++i];
            else if (ch === "%" && hexDigits.has(this.buffer[i + 1]) && hexDigits.has(this.buffer[i + 2])) {
              ch = this.buffer[i += 3];
            } else
              break;
          }
          return yield* this.pushToIndex(i, false);
        }
      }
      *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === "\n")
          return yield* this.pushCount(1);
        else if (ch === "\r" && this.charAt(1) === "\n")
          return yield* this.pushCount(2);
        else
          return 0;
      }
      *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
          ch = this.buffer[++i];
        } while (ch === " " || allowTabs && ch === "	");
        const n = i - this.pos;
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos = i;
        }
        return n;
      }
      *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
          ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
      }
    };
    exports.Lexer = Lexer;
  }
});

// node_modules/yaml/dist/parse/line-counter.js
var require_line_counter = __commonJS({
  "node_modules/yaml/dist/parse/line-counter.js"(exports) {
    "use strict";
    var LineCounter2 = class {
      constructor() {
        this.lineStarts = [];
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        this.linePos = (offset) => {
          let low = 0;
          let high = this.lineStarts.length;
          while (low < high) {
            const mid = low + high >> 1;
            if (this.lineStarts[mid] < offset)
              low = mid + 1;
            else
              high = mid;
          }
          if (this.lineStarts[low] === offset)
            return { line: low + 1, col: 1 };
          if (low === 0)
            return { line: 0, col: offset };
          const start = this.lineStarts[low - 1];
          return { line: low, col: offset - start + 1 };
        };
      }
    };
    exports.LineCounter = LineCounter2;
  }
});

// node_modules/yaml/dist/parse/parser.js
var require_parser = __commonJS({
  "node_modules/yaml/dist/parse/parser.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var cst = require_cst();
    var lexer = require_lexer();
    function includesToken(list, type) {
      for (let i = 0; i < list.length; ++i)
        if (list[i].type === type)
          return true;
      return false;
    }
    function findNonEmptyIndex(list) {
      for (let i = 0; i < list.length; ++i) {
        switch (list[i].type) {
          case "space":
          case "comment":
          case "newline":
            break;
          default:
            return i;
        }
      }
      return -1;
    }
    function isFlowToken(token) {
      switch (token?.type) {
        case "alias":
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "flow-collection":
          return true;
        default:
          return false;
      }
    }
    function getPrevProps(parent) {
      switch (parent.type) {
        case "document":
          return parent.start;
        case "block-map": {
          const it = parent.items[parent.items.length - 1];
          return it.sep ?? it.start;
        }
        case "block-seq":
          return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
          return [];
      }
    }
    function getFirstKeyStartProps(prev) {
      if (prev.length === 0)
        return [];
      let i = prev.length;
      loop: while (--i >= 0) {
        switch (prev[i].type) {
          case "doc-start":
          case "explicit-key-ind":
          case "map-value-ind":
          case "seq-item-ind":
          case "newline":
            break loop;
        }
      }
      while (prev[++i]?.type === "space") {
      }
      return prev.splice(i, prev.length);
    }
    function arrayPushArray(target, source) {
      if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
      else
        for (let i = 0; i < source.length; ++i)
          target.push(source[i]);
    }
    function fixFlowSeqItems(fc) {
      if (fc.start.type === "flow-seq-start") {
        for (const it of fc.items) {
          if (it.sep && !it.value && !includesToken(it.start, "explicit-key-ind") && !includesToken(it.sep, "map-value-ind")) {
            if (it.key)
              it.value = it.key;
            delete it.key;
            if (isFlowToken(it.value)) {
              if (it.value.end)
                arrayPushArray(it.value.end, it.sep);
              else
                it.value.end = it.sep;
            } else
              arrayPushArray(it.start, it.sep);
            delete it.sep;
          }
        }
      }
    }
    var Parser = class {
      /**
       * @param onNewLine - If defined, called separately with the start position of
       *   each new line (in `parse()`, including the start of input).
       */
      constructor(onNewLine) {
        this.atNewLine = true;
        this.atScalar = false;
        this.indent = 0;
        this.offset = 0;
        this.onKeyLine = false;
        this.stack = [];
        this.source = "";
        this.type = "";
        this.lexer = new lexer.Lexer();
        this.onNewLine = onNewLine;
      }
      /**
       * Parse `source` as a YAML stream.
       * If `incomplete`, a part of the last line may be left as a buffer for the next call.
       *
       * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
       *
       * @returns A generator of tokens representing each directive, document, and other structure.
       */
      *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
          this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
          yield* this.next(lexeme);
        if (!incomplete)
          yield* this.end();
      }
      /**
       * Advance the parser by the `source` of one lexical token.
       */
      *next(source) {
        this.source = source;
        if (node_process.env.LOG_TOKENS)
          console.log("|", cst.prettyToken(source));
        if (this.atScalar) {
          this.atScalar = false;
          yield* this.step();
          this.offset += source.length;
          return;
        }
        const type = cst.tokenType(source);
        if (!type) {
          const message = `Not a YAML token: ${source}`;
          yield* this.pop({ type: "error", offset: this.offset, message, source });
          this.offset += source.length;
        } else if (type === "scalar") {
          this.atNewLine = false;
          this.atScalar = true;
          this.type = "scalar";
        } else {
          this.type = type;
          yield* this.step();
          switch (type) {
            case "newline":
              this.atNewLine = true;
              this.indent = 0;
              if (this.onNewLine)
                this.onNewLine(this.offset + source.length);
              break;
            case "space":
              if (this.atNewLine && source[0] === " ")
                this.indent += source.length;
              break;
            case "explicit-key-ind":
            case "map-value-ind":
            case "seq-item-ind":
              if (this.atNewLine)
                this.indent += source.length;
              break;
            case "doc-mode":
            case "flow-error-end":
              return;
            default:
              this.atNewLine = false;
          }
          this.offset += source.length;
        }
      }
      /** Call at end of input to push out any remaining constructions */
      *end() {
        while (this.stack.length > 0)
          yield* this.pop();
      }
      get sourceToken() {
        const st = {
          type: this.type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
        return st;
      }
      *step() {
        const top = this.peek(1);
        if (this.type === "doc-end" && top?.type !== "doc-end") {
          while (this.stack.length > 0)
            yield* this.pop();
          this.stack.push({
            type: "doc-end",
            offset: this.offset,
            source: this.source
          });
          return;
        }
        if (!top)
          return yield* this.stream();
        switch (top.type) {
          case "document":
            return yield* this.document(top);
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return yield* this.scalar(top);
          case "block-scalar":
            return yield* this.blockScalar(top);
          case "block-map":
            return yield* this.blockMap(top);
          case "block-seq":
            return yield* this.blockSequence(top);
          case "flow-collection":
            return yield* this.flowCollection(top);
          case "doc-end":
            return yield* this.documentEnd(top);
        }
        yield* this.pop();
      }
      peek(n) {
        return this.stack[this.stack.length - n];
      }
      *pop(error2) {
        const token = error2 ?? this.stack.pop();
        if (!token) {
          const message = "Tried to pop an empty stack";
          yield { type: "error", offset: this.offset, source: "", message };
        } else if (this.stack.length === 0) {
          yield token;
        } else {
          const top = this.peek(1);
          if (token.type === "block-scalar") {
            token.indent = "indent" in top ? top.indent : 0;
          } else if (token.type === "flow-collection" && top.type === "document") {
            token.indent = 0;
          }
          if (token.type === "flow-collection")
            fixFlowSeqItems(token);
          switch (top.type) {
            case "document":
              top.value = token;
              break;
            case "block-scalar":
              top.props.push(token);
              break;
            case "block-map": {
              const it = top.items[top.items.length - 1];
              if (it.value) {
                top.items.push({ start: [], key: token, sep: [] });
                this.onKeyLine = true;
                return;
              } else if (it.sep) {
                it.value = token;
              } else {
                Object.assign(it, { key: token, sep: [] });
                this.onKeyLine = !it.explicitKey;
                return;
              }
              break;
            }
            case "block-seq": {
              const it = top.items[top.items.length - 1];
              if (it.value)
                top.items.push({ start: [], value: token });
              else
                it.value = token;
              break;
            }
            case "flow-collection": {
              const it = top.items[top.items.length - 1];
              if (!it || it.value)
                top.items.push({ start: [], key: token, sep: [] });
              else if (it.sep)
                it.value = token;
              else
                Object.assign(it, { key: token, sep: [] });
              return;
            }
            /* istanbul ignore next should not happen */
            default:
              yield* this.pop();
              yield* this.pop(token);
          }
          if ((top.type === "document" || top.type === "block-map" || top.type === "block-seq") && (token.type === "block-map" || token.type === "block-seq")) {
            const last = token.items[token.items.length - 1];
            if (last && !last.sep && !last.value && last.start.length > 0 && findNonEmptyIndex(last.start) === -1 && (token.indent === 0 || last.start.every((st) => st.type !== "comment" || st.indent < token.indent))) {
              if (top.type === "document")
                top.end = last.start;
              else
                top.items.push({ start: last.start });
              token.items.splice(-1, 1);
            }
          }
        }
      }
      *stream() {
        switch (this.type) {
          case "directive-line":
            yield { type: "directive", offset: this.offset, source: this.source };
            return;
          case "byte-order-mark":
          case "space":
          case "comment":
          case "newline":
            yield this.sourceToken;
            return;
          case "doc-mode":
          case "doc-start": {
            const doc = {
              type: "document",
              offset: this.offset,
              start: []
            };
            if (this.type === "doc-start")
              doc.start.push(this.sourceToken);
            this.stack.push(doc);
            return;
          }
        }
        yield {
          type: "error",
          offset: this.offset,
          message: `Unexpected ${this.type} token in YAML stream`,
          source: this.source
        };
      }
      *document(doc) {
        if (doc.value)
          return yield* this.lineEnd(doc);
        switch (this.type) {
          case "doc-start": {
            if (findNonEmptyIndex(doc.start) !== -1) {
              yield* this.pop();
              yield* this.step();
            } else
              doc.start.push(this.sourceToken);
            return;
          }
          case "anchor":
          case "tag":
          case "space":
          case "comment":
          case "newline":
            doc.start.push(this.sourceToken);
            return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
          this.stack.push(bv);
        else {
          yield {
            type: "error",
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML document`,
            source: this.source
          };
        }
      }
      *scalar(scalar) {
        if (this.type === "map-value-ind") {
          const prev = getPrevProps(this.peek(2));
          const start = getFirstKeyStartProps(prev);
          let sep2;
          if (scalar.end) {
            sep2 = scalar.end;
            sep2.push(this.sourceToken);
            delete scalar.end;
          } else
            sep2 = [this.sourceToken];
          const map = {
            type: "block-map",
            offset: scalar.offset,
            indent: scalar.indent,
            items: [{ start, key: scalar, sep: sep2 }]
          };
          this.onKeyLine = true;
          this.stack[this.stack.length - 1] = map;
        } else
          yield* this.lineEnd(scalar);
      }
      *blockScalar(scalar) {
        switch (this.type) {
          case "space":
          case "comment":
          case "newline":
            scalar.props.push(this.sourceToken);
            return;
          case "scalar":
            scalar.source = this.source;
            this.atNewLine = true;
            this.indent = 0;
            if (this.onNewLine) {
              let nl = this.source.indexOf("\n") + 1;
              while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf("\n", nl) + 1;
              }
            }
            yield* this.pop();
            break;
          /* istanbul ignore next should not happen */
          default:
            yield* this.pop();
            yield* this.step();
        }
      }
      *blockMap(map) {
        const it = map.items[map.items.length - 1];
        switch (this.type) {
          case "newline":
            this.onKeyLine = false;
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              it.start.push(this.sourceToken);
            }
            return;
          case "space":
          case "comment":
            if (it.value) {
              map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              if (this.atIndentedComment(it.start, map.indent)) {
                const prev = map.items[map.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  map.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
        }
        if (this.indent >= map.indent) {
          const atMapIndent = !this.onKeyLine && this.indent === map.indent;
          const atNextItem = atMapIndent && (it.sep || it.explicitKey) && this.type !== "seq-item-ind";
          let start = [];
          if (atNextItem && it.sep && !it.value) {
            const nl = [];
            for (let i = 0; i < it.sep.length; ++i) {
              const st = it.sep[i];
              switch (st.type) {
                case "newline":
                  nl.push(i);
                  break;
                case "space":
                  break;
                case "comment":
                  if (st.indent > map.indent)
                    nl.length = 0;
                  break;
                default:
                  nl.length = 0;
              }
            }
            if (nl.length >= 2)
              start = it.sep.splice(nl[1]);
          }
          switch (this.type) {
            case "anchor":
            case "tag":
              if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start });
                this.onKeyLine = true;
              } else if (it.sep) {
                it.sep.push(this.sourceToken);
              } else {
                it.start.push(this.sourceToken);
              }
              return;
            case "explicit-key-ind":
              if (!it.sep && !it.explicitKey) {
                it.start.push(this.sourceToken);
                it.explicitKey = true;
              } else if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start, explicitKey: true });
              } else {
                this.stack.push({
                  type: "block-map",
                  offset: this.offset,
                  indent: this.indent,
                  items: [{ start: [this.sourceToken], explicitKey: true }]
                });
              }
              this.onKeyLine = true;
              return;
            case "map-value-ind":
              if (it.explicitKey) {
                if (!it.sep) {
                  if (includesToken(it.start, "newline")) {
                    Object.assign(it, { key: null, sep: [this.sourceToken] });
                  } else {
                    const start2 = getFirstKeyStartProps(it.start);
                    this.stack.push({
                      type: "block-map",
                      offset: this.offset,
                      indent: this.indent,
                      items: [{ start: start2, key: null, sep: [this.sourceToken] }]
                    });
                  }
                } else if (it.value) {
                  map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                  });
                } else if (isFlowToken(it.key) && !includesToken(it.sep, "newline")) {
                  const start2 = getFirstKeyStartProps(it.start);
                  const key = it.key;
                  const sep2 = it.sep;
                  sep2.push(this.sourceToken);
                  delete it.key;
                  delete it.sep;
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: start2, key, sep: sep2 }]
                  });
                } else if (start.length > 0) {
                  it.sep = it.sep.concat(start, this.sourceToken);
                } else {
                  it.sep.push(this.sourceToken);
                }
              } else {
                if (!it.sep) {
                  Object.assign(it, { key: null, sep: [this.sourceToken] });
                } else if (it.value || atNextItem) {
                  map.items.push({ start, key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [], key: null, sep: [this.sourceToken] }]
                  });
                } else {
                  it.sep.push(this.sourceToken);
                }
              }
              this.onKeyLine = true;
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (atNextItem || it.value) {
                map.items.push({ start, key: fs, sep: [] });
                this.onKeyLine = true;
              } else if (it.sep) {
                this.stack.push(fs);
              } else {
                Object.assign(it, { key: fs, sep: [] });
                this.onKeyLine = true;
              }
              return;
            }
            default: {
              const bv = this.startBlockValue(map);
              if (bv) {
                if (bv.type === "block-seq") {
                  if (!it.explicitKey && it.sep && !includesToken(it.sep, "newline")) {
                    yield* this.pop({
                      type: "error",
                      offset: this.offset,
                      message: "Unexpected block-seq-ind on same line with key",
                      source: this.source
                    });
                    return;
                  }
                } else if (atMapIndent) {
                  map.items.push({ start });
                }
                this.stack.push(bv);
                return;
              }
            }
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
          case "newline":
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                seq.items.push({ start: [this.sourceToken] });
            } else
              it.start.push(this.sourceToken);
            return;
          case "space":
          case "comment":
            if (it.value)
              seq.items.push({ start: [this.sourceToken] });
            else {
              if (this.atIndentedComment(it.start, seq.indent)) {
                const prev = seq.items[seq.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  seq.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
          case "anchor":
          case "tag":
            if (it.value || this.indent <= seq.indent)
              break;
            it.start.push(this.sourceToken);
            return;
          case "seq-item-ind":
            if (this.indent !== seq.indent)
              break;
            if (it.value || includesToken(it.start, "seq-item-ind"))
              seq.items.push({ start: [this.sourceToken] });
            else
              it.start.push(this.sourceToken);
            return;
        }
        if (this.indent > seq.indent) {
          const bv = this.startBlockValue(seq);
          if (bv) {
            this.stack.push(bv);
            return;
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === "flow-error-end") {
          let top;
          do {
            yield* this.pop();
            top = this.peek(1);
          } while (top?.type === "flow-collection");
        } else if (fc.end.length === 0) {
          switch (this.type) {
            case "comma":
            case "explicit-key-ind":
              if (!it || it.sep)
                fc.items.push({ start: [this.sourceToken] });
              else
                it.start.push(this.sourceToken);
              return;
            case "map-value-ind":
              if (!it || it.value)
                fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                Object.assign(it, { key: null, sep: [this.sourceToken] });
              return;
            case "space":
            case "comment":
            case "newline":
            case "anchor":
            case "tag":
              if (!it || it.value)
                fc.items.push({ start: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                it.start.push(this.sourceToken);
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (!it || it.value)
                fc.items.push({ start: [], key: fs, sep: [] });
              else if (it.sep)
                this.stack.push(fs);
              else
                Object.assign(it, { key: fs, sep: [] });
              return;
            }
            case "flow-map-end":
            case "flow-seq-end":
              fc.end.push(this.sourceToken);
              return;
          }
          const bv = this.startBlockValue(fc);
          if (bv)
            this.stack.push(bv);
          else {
            yield* this.pop();
            yield* this.step();
          }
        } else {
          const parent = this.peek(2);
          if (parent.type === "block-map" && (this.type === "map-value-ind" && parent.indent === fc.indent || this.type === "newline" && !parent.items[parent.items.length - 1].sep)) {
            yield* this.pop();
            yield* this.step();
          } else if (this.type === "map-value-ind" && parent.type !== "flow-collection") {
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            fixFlowSeqItems(fc);
            const sep2 = fc.end.splice(1, fc.end.length);
            sep2.push(this.sourceToken);
            const map = {
              type: "block-map",
              offset: fc.offset,
              indent: fc.indent,
              items: [{ start, key: fc, sep: sep2 }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
          } else {
            yield* this.lineEnd(fc);
          }
        }
      }
      flowScalar(type) {
        if (this.onNewLine) {
          let nl = this.source.indexOf("\n") + 1;
          while (nl !== 0) {
            this.onNewLine(this.offset + nl);
            nl = this.source.indexOf("\n", nl) + 1;
          }
        }
        return {
          type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
      }
      startBlockValue(parent) {
        switch (this.type) {
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return this.flowScalar(this.type);
          case "block-scalar-header":
            return {
              type: "block-scalar",
              offset: this.offset,
              indent: this.indent,
              props: [this.sourceToken],
              source: ""
            };
          case "flow-map-start":
          case "flow-seq-start":
            return {
              type: "flow-collection",
              offset: this.offset,
              indent: this.indent,
              start: this.sourceToken,
              items: [],
              end: []
            };
          case "seq-item-ind":
            return {
              type: "block-seq",
              offset: this.offset,
              indent: this.indent,
              items: [{ start: [this.sourceToken] }]
            };
          case "explicit-key-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            start.push(this.sourceToken);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, explicitKey: true }]
            };
          }
          case "map-value-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, key: null, sep: [this.sourceToken] }]
            };
          }
        }
        return null;
      }
      atIndentedComment(start, indent) {
        if (this.type !== "comment")
          return false;
        if (this.indent <= indent)
          return false;
        return start.every((st) => st.type === "newline" || st.type === "space");
      }
      *documentEnd(docEnd) {
        if (this.type !== "doc-mode") {
          if (docEnd.end)
            docEnd.end.push(this.sourceToken);
          else
            docEnd.end = [this.sourceToken];
          if (this.type === "newline")
            yield* this.pop();
        }
      }
      *lineEnd(token) {
        switch (this.type) {
          case "comma":
          case "doc-start":
          case "doc-end":
          case "flow-seq-end":
          case "flow-map-end":
          case "map-value-ind":
            yield* this.pop();
            yield* this.step();
            break;
          case "newline":
            this.onKeyLine = false;
          // fallthrough
          case "space":
          case "comment":
          default:
            if (token.end)
              token.end.push(this.sourceToken);
            else
              token.end = [this.sourceToken];
            if (this.type === "newline")
              yield* this.pop();
        }
      }
    };
    exports.Parser = Parser;
  }
});

// node_modules/yaml/dist/public-api.js
var require_public_api = __commonJS({
  "node_modules/yaml/dist/public-api.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var errors = require_errors();
    var log = require_log();
    var identity = require_identity();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    function parseOptions(options) {
      const prettyErrors = options.prettyErrors !== false;
      const lineCounter$1 = options.lineCounter || prettyErrors && new lineCounter.LineCounter() || null;
      return { lineCounter: lineCounter$1, prettyErrors };
    }
    function parseAllDocuments(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      const docs = Array.from(composer$1.compose(parser$1.parse(source)));
      if (prettyErrors && lineCounter2)
        for (const doc of docs) {
          doc.errors.forEach(errors.prettifyError(source, lineCounter2));
          doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
        }
      if (docs.length > 0)
        return docs;
      return Object.assign([], { empty: true }, composer$1.streamInfo());
    }
    function parseDocument2(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      let doc = null;
      for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
        if (!doc)
          doc = _doc;
        else if (doc.options.logLevel !== "silent") {
          doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()"));
          break;
        }
      }
      if (prettyErrors && lineCounter2) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter2));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
      }
      return doc;
    }
    function parse2(src, reviver, options) {
      let _reviver = void 0;
      if (typeof reviver === "function") {
        _reviver = reviver;
      } else if (options === void 0 && reviver && typeof reviver === "object") {
        options = reviver;
      }
      const doc = parseDocument2(src, options);
      if (!doc)
        return null;
      doc.warnings.forEach((warning2) => log.warn(doc.options.logLevel, warning2));
      if (doc.errors.length > 0) {
        if (doc.options.logLevel !== "silent")
          throw doc.errors[0];
        else
          doc.errors = [];
      }
      return doc.toJS(Object.assign({ reviver: _reviver }, options));
    }
    function stringify2(value, replacer, options) {
      let _replacer = null;
      if (typeof replacer === "function" || Array.isArray(replacer)) {
        _replacer = replacer;
      } else if (options === void 0 && replacer) {
        options = replacer;
      }
      if (typeof options === "string")
        options = options.length;
      if (typeof options === "number") {
        const indent = Math.round(options);
        options = indent < 1 ? void 0 : indent > 8 ? { indent: 8 } : { indent };
      }
      if (value === void 0) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
          return void 0;
      }
      if (identity.isDocument(value) && !_replacer)
        return value.toString(options);
      return new Document.Document(value, _replacer, options).toString(options);
    }
    exports.parse = parse2;
    exports.parseAllDocuments = parseAllDocuments;
    exports.parseDocument = parseDocument2;
    exports.stringify = stringify2;
  }
});

// node_modules/yaml/dist/index.js
var require_dist = __commonJS({
  "node_modules/yaml/dist/index.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var Schema = require_Schema();
    var errors = require_errors();
    var Alias = require_Alias();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var cst = require_cst();
    var lexer = require_lexer();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    var publicApi = require_public_api();
    var visit = require_visit();
    exports.Composer = composer.Composer;
    exports.Document = Document.Document;
    exports.Schema = Schema.Schema;
    exports.YAMLError = errors.YAMLError;
    exports.YAMLParseError = errors.YAMLParseError;
    exports.YAMLWarning = errors.YAMLWarning;
    exports.Alias = Alias.Alias;
    exports.isAlias = identity.isAlias;
    exports.isCollection = identity.isCollection;
    exports.isDocument = identity.isDocument;
    exports.isMap = identity.isMap;
    exports.isNode = identity.isNode;
    exports.isPair = identity.isPair;
    exports.isScalar = identity.isScalar;
    exports.isSeq = identity.isSeq;
    exports.Pair = Pair.Pair;
    exports.Scalar = Scalar.Scalar;
    exports.YAMLMap = YAMLMap.YAMLMap;
    exports.YAMLSeq = YAMLSeq.YAMLSeq;
    exports.CST = cst;
    exports.Lexer = lexer.Lexer;
    exports.LineCounter = lineCounter.LineCounter;
    exports.Parser = parser.Parser;
    exports.parse = publicApi.parse;
    exports.parseAllDocuments = publicApi.parseAllDocuments;
    exports.parseDocument = publicApi.parseDocument;
    exports.stringify = publicApi.stringify;
    exports.visit = visit.visit;
    exports.visitAsync = visit.visitAsync;
  }
});

// action/main.ts
import { randomBytes } from "node:crypto";
import {
  closeSync as closeSync2,
  constants as constants4,
  lstatSync as lstatSync3,
  mkdirSync as mkdirSync2,
  openSync as openSync2,
  unlinkSync,
  writeFileSync as writeFileSync4
} from "node:fs";
import { dirname as dirname5, join as join6, resolve as resolve4 } from "node:path";

// checks/command-results.ts
var outcomePassed = (outcome) => outcome.exit_code === 0 && !outcome.timed_out && outcome.signal === null;
var commandPassed = (command2) => outcomePassed(command2);
var failedCommands = (record) => record.commands.filter((command2) => !commandPassed(command2)).map((command2) => command2.name);

// checks/errors.ts
var ConfigurationError = class extends Error {
  constructor(file, problems, headline2 = `${file} is not a valid agate config`) {
    super(
      [
        `${headline2} (${problems.length} ${problems.length === 1 ? "problem" : "problems"}):`,
        ...problems.map((p) => `  - ${formatProblem(p)}`)
      ].join("\n")
    );
    this.file = file;
    this.problems = problems;
  }
  file;
  problems;
  name = "ConfigurationError";
};
function formatProblem(problem) {
  const of = problem.file ? ` of ${problem.file}` : "";
  const where = `line ${problem.line}, column ${problem.column}${of}`;
  return problem.path ? `${problem.path} at ${where}: ${problem.message}` : `at ${where}: ${problem.message}`;
}

// schemas/gate-status-constants.ts
var GATE_STATUS_VERSION = 1;
var STATUS_TAIL_CHARS = 4e3;

// checks/gate/record-status.ts
var statusTail = (text) => displayTail(text).slice(-STATUS_TAIL_CHARS);
function failingOf(record) {
  return record.commands.filter((c) => !commandPassed(c)).map((c) => ({
    name: c.name,
    exit_code: c.exit_code,
    signal: c.signal,
    timed_out: c.timed_out,
    duration_ms: c.duration_ms,
    output_tail: statusTail(c.output.tail)
  }));
}
function recordStatus(record, repository) {
  const failing = failingOf(record);
  const total = record.commands.length;
  const requirement = {
    id: "commands",
    name: "required commands",
    status: failing.length > 0 ? "fail" : "pass",
    reason: failing.length > 0 ? `${failing.length} of ${total} required commands failed (${failing.map((c) => c.name).join(", ")})` : `${total} of ${total} passed`,
    who: failing.length > 0 ? "agent" : "nobody"
  };
  const state = failing.length > 0 ? "rejected" : "waiting";
  return {
    version: GATE_STATUS_VERSION,
    source: "action",
    repository,
    pull_request: record.pull_request?.number ?? null,
    head_sha: record.pull_request?.head_sha ?? record.merge_group?.head_sha ?? record.tested.sha,
    state,
    action: failing.length > 0 ? "work" : "wait",
    report_only: false,
    conclusion: null,
    title: failing.length > 0 ? `The commands failed on ${shortSha(record.tested.sha)}: ${requirement.reason}` : `Every required command passed on ${shortSha(record.tested.sha)}; the agate App decides`,
    next: failing.map(
      (c) => `Make ${codeSpan(c.name, 80)} pass and push: ${c.timed_out ? `it timed out after ${durationText(c.duration_ms ?? 0)}` : c.signal ? `it was killed by ${c.signal}` : `it exited ${c.exit_code}`}`
    ),
    requirements: [requirement],
    failing_commands: failing,
    evaluator_missing: [],
    handoff_problems: [],
    budgets: null
  };
}

// schemas/action.ts
var booleanInput = (name) => external_exports.enum(["true", "false"], {
  error: (issue) => `input ${name} must be true or false, got ${JSON.stringify(issue.input)}`
}).transform((value) => value === "true");
var actionInputsSchema = external_exports.strictObject({
  token: external_exports.string().default(""),
  config: external_exports.string().min(1, { error: "input config must name a file" }).default(".github/agate.yml"),
  "working-directory": external_exports.string().min(1).default("."),
  "fail-on-command-failure": booleanInput("fail-on-command-failure").default(true),
  "record-path": external_exports.string().default("")
});
var repositorySchema = external_exports.object({
  full_name: repositoryFullNameSchema,
  default_branch: external_exports.string().min(1)
});
var pullRequestEventSchema = external_exports.object({
  pull_request: external_exports.object({
    number: positiveIntSchema,
    head: external_exports.object({ sha: gitShaSchema, ref: external_exports.string() }),
    base: external_exports.object({ sha: gitShaSchema, ref: external_exports.string() })
  }),
  repository: repositorySchema
});
var mergeGroupEventSchema = external_exports.object({
  merge_group: external_exports.object({
    head_sha: gitShaSchema,
    head_ref: external_exports.string().min(1),
    base_sha: gitShaSchema,
    base_ref: external_exports.string().min(1)
  }),
  repository: repositorySchema
});
var anyEventSchema = external_exports.object({ repository: repositorySchema.optional() });

// action/git/git.ts
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync, statSync as statSync2, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname as dirname2, join as join2, resolve } from "node:path";

// action/git/executables.ts
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
var SYSTEM_DIRECTORIES = [
  "/usr/bin",
  "/bin",
  "/usr/local/bin",
  "/opt/homebrew/bin",
  "/run/current-system/sw/bin"
];
var found = /* @__PURE__ */ new Map();
function isExecutableFile(path) {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
function systemExecutable(name, options = {}) {
  const cached2 = found.get(name);
  if (cached2) return cached2;
  const fromPath = (options.searchPath ?? "").split(delimiter).filter((dir) => isAbsolute(dir)).map((dir) => join(dir, name));
  const path = [...SYSTEM_DIRECTORIES.map((dir) => join(dir, name)), ...fromPath].find(
    isExecutableFile
  );
  if (!path) {
    throw new Error(
      `agate needs ${name} in one of ${SYSTEM_DIRECTORIES.join(", ")}; install it there (agate does not look ${name} up on PATH, which an earlier step can change)`
    );
  }
  found.set(name, path);
  return path;
}
function systemPath() {
  return [.../* @__PURE__ */ new Set([dirname(systemExecutable("git")), ...SYSTEM_DIRECTORIES])].join(delimiter);
}

// action/git/git.ts
var HARDENING = [
  ["core.fsmonitor", "false", "an fsmonitor hook program, run whenever git refreshes the index"],
  [
    "core.hooksPath",
    "/dev/null",
    "hooks (reference-transaction on fetch, ...): no file can exist under /dev/null"
  ],
  ["core.pager", "cat", "a pager program"],
  ["core.askPass", "", "an askpass program asked for credentials"],
  ["credential.helper", "", "credential helpers (shell commands); the empty value resets the list"],
  ["core.sshCommand", "ssh", "core.sshCommand, a shell command run for ssh remotes"],
  ["core.alternateRefsCommand", "true", "a command run during fetch to list the alternates' refs"],
  ["protocol.ext.allow", "never", "ext:: remote URLs, which run a command"],
  ["protocol.git.allow", "never", "git:// remotes and core.gitProxy, a command run for them"],
  ["diff.external", "", "an external diff program"],
  ["gc.auto", "0", "gc and its hooks run after a fetch"],
  ["maintenance.auto", "false", "maintenance run after a fetch"],
  ["submodule.recurse", "false", "commands recursing into submodules, whose config is theirs"],
  ["fetch.recurseSubmodules", "false", "fetch recursing into submodules"],
  ["core.untrackedCache", "false", "an untracked cache a command wrote into the index"]
];
var HARDENING_ARGS = HARDENING.flatMap(([key, value]) => ["-c", `${key}=${value}`]);
var safeDirectories = /* @__PURE__ */ new Set();
var userExcludes;
var quote = (value) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
function globalConfig() {
  const lines = ["[safe]"];
  for (const dir of safeDirectories) {
    if (!/[\n\r\0]/.test(dir)) lines.push(`	directory = ${quote(dir)}`);
  }
  return `${lines.join("\n")}
`;
}
function withGitHome(root2, run2) {
  if (root2 === void 0 || !ownedByAnother(root2)) return run2(NO_HOME);
  const home = mkdtempSync(join2(tmpdir(), "agate-git-"));
  try {
    writeFileSync(join2(home, "config"), globalConfig());
    return run2(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
var NO_HOME = "/dev/null";
function ownedByAnother(root2) {
  const uid = process.getuid?.();
  if (uid === void 0) return true;
  try {
    return statSync2(root2).uid !== uid || statSync2(join2(root2, ".git")).uid !== uid;
  } catch {
    return true;
  }
}
var userExcludesFile = () => userExcludes;
function workTreeRoot(cwd) {
  let dir;
  try {
    dir = realpathSync(cwd);
  } catch {
    return void 0;
  }
  for (; ; ) {
    if (existsSync(join2(dir, ".git"))) return dir;
    const parent = dirname2(dir);
    if (parent === dir) return void 0;
    dir = parent;
  }
}
function gitEnvironment(home) {
  return {
    PATH: systemPath(),
    HOME: home,
    XDG_CONFIG_HOME: home === NO_HOME ? NO_HOME : join2(home, "xdg"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: home === NO_HOME ? NO_HOME : join2(home, "config"),
    GIT_TERMINAL_PROMPT: "0",
    // Replace refs would let a repository substitute one object for another.
    GIT_NO_REPLACE_OBJECTS: "1",
    // Reading commands must not rewrite the repository's index behind the user's back.
    GIT_OPTIONAL_LOCKS: "0",
    LC_ALL: "C"
  };
}
function runGit(cwd, args, options) {
  const root2 = workTreeRoot(options.shadow?.workTree ?? cwd);
  if (root2) safeDirectories.add(root2);
  const location = options.shadow ? [`--git-dir=${options.shadow.gitDir}`, `--work-tree=${options.shadow.workTree}`] : [];
  const fullArgs = ["--no-pager", ...location, ...HARDENING_ARGS, ...args];
  const executable = systemExecutable("git");
  try {
    return withGitHome(
      root2,
      (home) => execFileSync(executable, fullArgs, {
        cwd,
        input: options.input,
        env: gitEnvironment(home),
        maxBuffer: 256 * 1024 * 1024,
        stdio: ["pipe", "pipe", "pipe"]
      })
    );
  } catch (error2) {
    const stderr = String(error2.stderr ?? "").trim();
    throw new Error(
      `git ${args.join(" ")} failed in ${cwd}: ${stderr || error2.message}`
    );
  }
}
function git(cwd, args, input) {
  return runGit(cwd, args, { input }).toString("utf8");
}
function readObjects(cwd, names) {
  if (names.some((name) => /[\n\r]/.test(name))) {
    throw new Error(`an object name cannot contain a line break: ${JSON.stringify(names)}`);
  }
  const out = runGit(cwd, ["cat-file", "--batch"], { input: `${names.join("\n")}
` });
  const objects = [];
  let at2 = 0;
  for (const _ of names) {
    const end = out.indexOf(10, at2);
    if (end < 0) throw new Error("git cat-file --batch ended early");
    const [sha = "", type = "", size = ""] = out.subarray(at2, end).toString("utf8").split(" ");
    if (!/^\d+$/.test(size)) {
      objects.push(null);
      at2 = end + 1;
      continue;
    }
    const content = out.subarray(end + 1, end + 1 + Number(size));
    objects.push({ sha, type, content });
    at2 = end + 1 + Number(size) + 1;
  }
  return objects;
}
function localStateDir(cwd) {
  return join2(resolve(cwd, git(cwd, ["rev-parse", "--git-dir"]).trim()), "agate");
}
function gitMaybe(cwd, args) {
  try {
    return git(cwd, args);
  } catch {
    return void 0;
  }
}
function gitShadow(shadow, args, input) {
  return gitShadowBuffer(shadow, args, input).toString("utf8");
}
function gitShadowBuffer(shadow, args, input) {
  return runGit(shadow.workTree, args, { shadow, input });
}

// action/base-config.ts
var hasCommit = (cwd, sha) => gitMaybe(cwd, ["cat-file", "-e", `${sha}^{commit}`]) !== void 0;
function fetchShallow(cwd, what) {
  return gitMaybe(cwd, [
    "fetch",
    "--no-tags",
    "--quiet",
    "--no-recurse-submodules",
    "--upload-pack=git-upload-pack",
    "--depth=1",
    "origin",
    what
  ]) !== void 0;
}
async function readConfigAtBase(options) {
  const { cwd, sha, path } = options;
  if (options.read?.type === "blob")
    return { text: options.read.content.toString("utf8"), via: "git" };
  const read = () => gitMaybe(cwd, ["cat-file", "blob", `${sha}:${path}`]);
  let text = options.read === void 0 ? read() : void 0;
  if (text !== void 0) return { text, via: "git" };
  if (!hasCommit(cwd, sha)) {
    fetchShallow(cwd, sha);
    text = read();
    if (text !== void 0) return { text, via: "git" };
  }
  if (hasCommit(cwd, sha)) return { text: null, via: "git" };
  if (options.api) return { text: await options.api(sha, path), via: "api" };
  throw new Error(
    `cannot read ${path} at the base commit ${sha}: it is not in the checkout and fetching it failed. Give the Action a token with contents: read, or check out with fetch-depth: 0.`
  );
}

// checks/config/extends.ts
var import_yaml = __toESM(require_dist(), 1);
var DEFAULTS_REPO = ".github";
var EXTENDS_EXAMPLE = "my-org/.github:agate/defaults.yml@<40-hex commit SHA>";
var FULL_SHA = /^[0-9a-f]{40}$/;
var defaultsProblem = (read) => "unreadable" in read ? read.unreadable : read.refused;
var defaultsWhere = (ref) => `${ref.path} at ${ref.sha} in ${ref.owner}/${ref.repo}`;
var oversizedDefaults = (ref, size) => ({
  refused: `${defaultsWhere(ref)} is ${size}. A defaults file is a few kilobytes of YAML: keep only agate's config in it`
});
function defaultsAt(ref, text, compared) {
  const problem = pinnedCommitProblem(ref, compared);
  return problem === null ? text : { refused: problem };
}
function pinnedCommitProblem(ref, compared) {
  const { defaultBranch, status } = compared;
  if (status === "identical" || status === "behind") return null;
  const where = `${ref.owner}/${ref.repo}`;
  const found2 = status === null ? `GitHub finds no history it shares with ${defaultBranch}` : `GitHub compares it with ${defaultBranch} as "${status}": it has commits ${defaultBranch} does not`;
  return `commit ${ref.sha} is not on ${where}'s default branch ${defaultBranch} (${found2}). agate reads defaults only at a commit of the default branch: GitHub also serves other branches', unmerged pull requests' and forks' commits under ${where}'s name, and nobody merged those as the defaults. Merge the change into ${defaultBranch} and pin a commit of it (git rev-parse origin/${defaultBranch} in a clone of ${where})`;
}
function parseExtendsReference(value, owner) {
  const fail = (problem) => ({ ok: false, problem });
  if (typeof value !== "string") {
    return fail(`expected a reference such as ${EXTENDS_EXAMPLE}, got ${kindOf(value)}`);
  }
  const reference = value;
  const at2 = reference.lastIndexOf("@");
  const colon = reference.indexOf(":");
  if (colon < 0 || at2 < colon) {
    return fail(
      `${JSON.stringify(value)} is not a reference to a defaults file: write <owner>/.github:<path>@<commit SHA>, such as ${EXTENDS_EXAMPLE}`
    );
  }
  const repository = reference.slice(0, colon);
  const path = reference.slice(colon + 1, at2);
  const rev = reference.slice(at2 + 1);
  const [refOwner, repo, ...more] = repository.split("/");
  if (!refOwner || !repo || more.length > 0 || !/^[A-Za-z0-9-]+$/.test(refOwner)) {
    return fail(
      `${JSON.stringify(repository)} is not a repository such as my-org/.github: write <owner>/.github:<path>@<commit SHA>`
    );
  }
  const why = "the App's installation and the Action's token reach nothing else reliably, so defaults can live only there";
  if (repo !== DEFAULTS_REPO) {
    return fail(
      `extends may name only the owner's ${DEFAULTS_REPO} repository (${refOwner}/${DEFAULTS_REPO}), not ${repository}: ${why}`
    );
  }
  if (owner !== null && refOwner.toLowerCase() !== owner.toLowerCase()) {
    return fail(
      `extends may name only this repository's owner's ${DEFAULTS_REPO} repository (${owner}/${DEFAULTS_REPO}), not ${repository}: ${why}`
    );
  }
  const segments = path.split("/");
  if (path === "" || path.startsWith("/") || path.includes("\\") || segments.some((s) => s === "" || s === "." || s === "..")) {
    return fail(
      `${JSON.stringify(path)} is not a file path inside ${refOwner}/${DEFAULTS_REPO}: write a relative path such as agate.yml or agate/defaults.yml`
    );
  }
  if (!FULL_SHA.test(rev)) {
    const looks = /^[0-9a-fA-F]{4,40}$/.test(rev) ? /[A-F]/.test(rev) && rev.length === 40 ? "a commit SHA in capitals: write it in lowercase" : "an abbreviated commit SHA: write all 40 hex digits" : "a branch or tag name, which can move";
    return fail(
      `${JSON.stringify(rev)} is ${looks}. Pin the defaults to a full 40-hex commit SHA (git rev-parse HEAD in ${refOwner}/${DEFAULTS_REPO}): the defaults must not change under a base commit that did not change, and a change of the SHA is a change of this file that needs a maintainer's approval`
    );
  }
  return {
    ok: true,
    ref: { owner: refOwner, repo: DEFAULTS_REPO, path, sha: rev, reference }
  };
}
function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return JSON.stringify(value);
}
var isPlainMap = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
var mergeable = (defaults, own) => !("kind" in defaults && "kind" in own && defaults.kind !== own.kind);
function mergeDefaults(defaults, own) {
  if (!isPlainMap(defaults) || !isPlainMap(own) || !mergeable(defaults, own)) return own;
  const merged = { ...defaults };
  for (const [key, value] of Object.entries(own)) {
    merged[key] = key in defaults ? mergeDefaults(defaults[key], value) : value;
  }
  return merged;
}
function kindIn(node) {
  if (!(0, import_yaml.isMap)(node)) return void 0;
  const pair = node.items.find(
    (item) => (0, import_yaml.isPair)(item) && (0, import_yaml.isScalar)(item.key) && String(item.key.value) === "kind"
  );
  return pair && (0, import_yaml.isScalar)(pair.value) ? pair.value.value : void 0;
}
function originOf(own, defaults, path) {
  for (let depth = 1; depth <= path.length; depth++) {
    const prefix = path.slice(0, depth);
    const mineThere = own.hasIn(prefix);
    const theirsThere = defaults.hasIn(prefix);
    if (!mineThere) return theirsThere ? "defaults" : "own";
    if (!theirsThere) return "own";
    const mine = own.getIn(prefix, true);
    const theirs = defaults.getIn(prefix, true);
    if (!(0, import_yaml.isMap)(mine) || !(0, import_yaml.isMap)(theirs)) return "own";
    const [a, b] = [kindIn(mine), kindIn(theirs)];
    if (a !== void 0 && b !== void 0 && a !== b) return "own";
  }
  return "own";
}

// checks/config/parse-config.ts
var import_yaml2 = __toESM(require_dist(), 1);

// schemas/duration.ts
var UNIT_MS = { ms: 1, s: 1e3, m: 6e4, h: 36e5, d: 864e5 };
var DURATION_PATTERN = /^([1-9][0-9]*)(ms|s|m|h|d)$/;
var durationMessage = (input) => typeof input === "number" ? `${input} is not a duration: write the unit, such as ${input}s or ${input}m` : `${JSON.stringify(input)} is not a duration such as 90s, 10m or 1h`;
function parseDuration(text) {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return void 0;
  return Number(match[1]) * UNIT_MS[match[2]];
}
var durationSchema = external_exports.string({ error: (issue) => durationMessage(issue.input) }).regex(DURATION_PATTERN, { error: (issue) => durationMessage(issue.input) }).transform((text) => parseDuration(text));

// schemas/config.ts
var CONFIG_PATH = ".github/agate.yml";
var ALWAYS_PROTECTED_PATHS = [".github/**", CONFIG_PATH];
var nonEmpty = (what) => external_exports.string().min(1, { error: `${what} must not be empty` });
var globSchema = nonEmpty("a glob pattern").meta({
  description: "A glob such as `codex/**` or `tests/acceptance/**` (picomatch syntax)."
});
var labelSchema = nonEmpty("a label name");
var commandSchema = external_exports.strictObject({
  name: external_exports.string().regex(/^[A-Za-z0-9][A-Za-z0-9 ._:/-]*$/, {
    error: (issue) => `${JSON.stringify(issue.input)} is not a command name: use letters, digits, spaces and . _ : / -, such as "unit tests"`
  }).meta({
    description: "Short name shown in the check-run summary, unique in the list.",
    examples: ["unit tests"]
  }),
  run: nonEmpty("a command's run").meta({
    description: "Shell text, run by `bash -eo pipefail` at the repository root.",
    examples: ["npm test"]
  }),
  timeout: durationSchema.prefault("10m").meta({
    description: "Wall-clock limit such as 90s, 10m or 1h; the whole process tree is killed."
  }),
  writes: external_exports.array(globSchema).default([]).meta({
    description: "Tracked or unignored paths this command may change (globs). A change anywhere else makes the record not believed: a command that edits the code it tests has not tested the commit.",
    examples: [["coverage/**"]]
  }),
  privileged: external_exports.boolean().default(false).meta({
    description: "Run this command as agate's own user (with the runner's sudo, if it has one), not as the unprivileged commands user: for a command that needs root or Docker. Such a command could forge the record, so a passing record with one counts only once a maintainer accepts the exact commit (`/agate accept`). Prefer installing what it needs in a step before agate."
  })
}).meta({ description: "A command that must exit 0 on the tested commit." });
var gateSchema = external_exports.strictObject({
  all: external_exports.boolean().default(true).meta({
    description: "Gate every pull request, whoever opened it (the default). Set false to gate only what authors, labels or branches select; labels and branch names are the author's choice, so only authors narrow safely."
  }),
  authors: external_exports.array(githubLoginSchema).default([]).meta({
    description: "Logins whose pull requests are gated (agent accounts and apps, e.g. `my-agent[bot]`)."
  }),
  labels: external_exports.array(labelSchema).default(["agent"]).meta({
    description: "A pull request carrying any of these labels is gated. Removing it later does not ungate it."
  }),
  branches: external_exports.array(globSchema).default(["codex/**", "claude/**", "copilot/**", "devin/**", "openhands/**", "agent/**"]).meta({ description: "Head-branch globs whose pull requests are gated." }),
  report_only: external_exports.boolean().default(false).meta({
    description: "Adopt agate gradually: the agate check always concludes neutral (it never blocks a merge or a merge queue) and its summary shows what agate would have decided; no state labels are set. Everything else (records, the evaluator, budgets) runs as when enforced."
  })
}).meta({
  description: "Which pull requests agate gates. Any match gates; nothing here can ungate."
});
var minScoreSchema = external_exports.number().min(0, { error: "min_score is a score between 0 and 1" }).max(1, { error: "min_score is a score between 0 and 1" }).default(0.8).meta({ description: "The evaluator's score must be at least this (0..1)." });
var rubricSchema = external_exports.string().default("").meta({ description: "Extra acceptance criteria given to the evaluator, from the base branch." });
var evaluatorSchema = external_exports.discriminatedUnion(
  "kind",
  [
    external_exports.strictObject({ kind: external_exports.literal("none") }),
    external_exports.strictObject({
      kind: external_exports.literal("llm"),
      provider: external_exports.enum(["openai", "anthropic"]).default("openai").meta({
        description: "`openai`: any OpenAI-compatible Chat Completions endpoint; `anthropic`: the Messages API."
      }),
      model: nonEmpty("evaluator.model").meta({ examples: ["gpt-4.1-mini"] }),
      base_url: external_exports.url({ error: "base_url must be an absolute URL such as http://localhost:8000/v1" }).optional().meta({
        description: "Endpoint base URL; absent means the provider's public endpoint."
      }),
      min_score: minScoreSchema,
      rubric: rubricSchema
    }),
    external_exports.strictObject({
      kind: external_exports.literal("command"),
      run: nonEmpty("evaluator.run").meta({
        description: "Executable that reads the evaluation bundle as JSON on stdin and prints a verdict."
      }),
      timeout: durationSchema.prefault("10m"),
      min_score: minScoreSchema,
      rubric: rubricSchema
    }),
    external_exports.strictObject({ kind: external_exports.literal("review") })
  ],
  {
    error: (issue) => issue.code === "invalid_union" ? `${JSON.stringify(issue.input?.kind)} is not an evaluator kind: use none, llm, command or review` : void 0
  }
).prefault({ kind: "none" }).meta({
  description: "Who signs off after every command passed. Default: none (commands only)."
});
var optionalLimit = (description) => positiveIntSchema.nullable().default(null).meta({ description: `${description} null: rule off.` });
var handoffSchema = external_exports.strictObject({
  path: nonEmpty("handoff.path").default(".agate/handoff.md"),
  required_when: external_exports.strictObject({
    commits_over: optionalLimit("Required when the pull request has more commits than this."),
    open_longer_than: durationSchema.nullable().default(null).meta({
      description: "Required when the pull request has been open longer than this. null: rule off."
    }),
    changed_lines_over: optionalLimit("Required when more lines than this changed."),
    labels: external_exports.array(labelSchema).default(["long-task"]),
    sessions_over: positiveIntSchema.nullable().default(1).meta({
      description: "Required when more distinct `Agent-Session:` commit trailers than this appear."
    })
  }).prefault({})
}).prefault({}).meta({ description: "The handoff file long tasks must carry at their head commit." });
var budgetsSchema = external_exports.strictObject({
  graded_attempts_per_pr: positiveIntSchema.default(10).meta({
    description: "Head SHAs graded per pull request before it is capped."
  }),
  evaluator_calls_per_tree: positiveIntSchema.default(1).meta({
    description: "Successful evaluator calls per tree SHA."
  }),
  evaluator_calls_per_pr_per_day: positiveIntSchema.default(10),
  evaluator_bundle_tokens: positiveIntSchema.default(6e4).meta({
    description: "Ceiling on the estimated tokens of what the evaluator is shown."
  }),
  unchanged_failures_before_stalled: positiveIntSchema.default(3).meta({
    description: "Consecutive failures with identical normalised output before the pull request is stalled."
  })
}).prefault({});
var escalationSchema = external_exports.strictObject({
  maintainers: external_exports.array(
    external_exports.string().regex(/^@?[A-Za-z0-9-]+(\/[A-Za-z0-9_.-]+)?(\[bot\])?$/, {
      error: (issue) => `${JSON.stringify(issue.input)} is neither a login (octocat) nor a team (@my-org/maintainers)`
    })
  ).default([]).meta({
    description: "Logins or @org/team slugs: mentioned once when a handoff entry is escalated (empty: nobody is mentioned, and the entry's comment says so), and the maintainers whose approval counts for protected paths, who may /agate accept a commit and who decide entries (empty: anyone with write access). Only a person's account counts, never a bot."
  }),
  unanswered_timeout: durationSchema.prefault("30m"),
  claim_timeout: durationSchema.prefault("10m"),
  follow_up_limit: external_exports.number().int().nonnegative().default(1),
  claim_expiries_before_blocked: positiveIntSchema.default(2)
}).prefault({});
var workflowPathSchema = external_exports.string().regex(/^\.github\/workflows\/[^/]+\.ya?ml$/, {
  error: (issue) => `${JSON.stringify(issue.input)} is not a workflow file: use a path such as .github/workflows/agate.yml`
});
var nameSchema = (what) => external_exports.string().min(1, { error: `${what} must not be empty` }).max(100, { error: `${what} must be at most 100 characters` });
var evidenceSchema = external_exports.strictObject({
  workflow: workflowPathSchema.default(".github/workflows/agate.yml").meta({
    description: "The workflow file whose runs carry the evidence, on pull_request and merge_group."
  }),
  job: nameSchema("evidence.job").default("agate-commands").meta({
    description: "The job (its key, or its `name:` when it has one) that runs the agate Action. Not `agate`: GitHub makes a check run named after each job, and `agate` is the gate's own check."
  }),
  step: nameSchema("evidence.step").default("agate").meta({
    description: "The `name:` of the step that runs the agate Action; the runner's conclusion for it must agree with the record."
  }),
  isolation: external_exports.enum(["required", "shared-allowed"]).default("required").meta({
    description: "`required`: a passing record counts only when the commands ran as a user of their own, which the Action sets up through the runner's passwordless sudo (GitHub-hosted runners have it) or as root; without one, the Action refuses to run them. `shared-allowed`: on a self-hosted runner without sudo, the commands may run as agate's own user, which lets the code under test change the record; the summary says so."
  })
}).prefault({}).meta({ description: "Where command records come from: one workflow, job and step." });
var mergeQueueSchema = external_exports.strictObject({
  record_timeout: durationSchema.prefault("30m").meta({
    description: "How long a merge group waits for its command record before the agate check fails; every checks request gets an answer."
  })
}).prefault({}).meta({
  description: "The merge queue: a merge group is accepted only on evidence for its own head."
});
var extendsSchema = external_exports.string().regex(/^[A-Za-z0-9-]+\/\.github:[^@\s]+@[0-9a-f]{40}$/, {
  error: (issue) => `${JSON.stringify(issue.input)} is not <owner>/.github:<path>@<40-hex commit SHA>`
}).optional().meta({
  description: "Organisation-wide defaults: `<owner>/.github:<path>@<40-hex commit SHA>`, a file in this repository's owner's .github repository at a pinned commit. This file is merged on top of it (maps key by key, this file's value wins; lists and scalars replaced whole); the defaults may not extend others.",
  examples: ["my-org/.github:agate/defaults.yml@0123456789abcdef0123456789abcdef01234567"]
});
var configSchema = external_exports.strictObject({
  version: external_exports.literal(1, { error: "version must be 1, the only config version this agate reads" }).meta({ examples: [1] }),
  gate: gateSchema.prefault({}),
  commands: external_exports.array(commandSchema).min(1, { error: "needs at least one command, such as - { name: test, run: npm test }" }).superRefine((commands, ctx) => {
    const seen = /* @__PURE__ */ new Set();
    commands.forEach((command2, index) => {
      if (seen.has(command2.name)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          input: command2.name,
          message: `${JSON.stringify(command2.name)} is used by an earlier command: names must be unique`
        });
      }
      seen.add(command2.name);
    });
  }).meta({ examples: [[{ name: "test", run: "npm test" }]] }),
  protected_paths: external_exports.array(globSchema).default([]).meta({
    description: `Globs that need a maintainer's approval to change; ${ALWAYS_PROTECTED_PATHS.join(" and ")} always do.`
  }),
  evidence: evidenceSchema,
  evaluator: evaluatorSchema,
  handoff: handoffSchema,
  budgets: budgetsSchema,
  escalation: escalationSchema,
  merge_queue: mergeQueueSchema,
  // The detector's own schema, so its defaults and the config's cannot drift apart.
  progress: progressThresholdsSchema.prefault({}).meta({
    description: "Thresholds of the per-trace progress detector (docs/progress.md): when a stretch of an agent's trace is flagged, and opt-in budgets."
  }),
  // Last, so the keys a file usually starts with are listed first in "takes ..." messages.
  extends: extendsSchema
}).meta({
  title: "agate config (.github/agate.yml)",
  description: "Read from the pull request's base branch."
});

// checks/config/digest.ts
import { createHash } from "node:crypto";
function canonicalJson(value) {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new Error(`cannot canonicalise ${value}: JSON has no such number`);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => item === void 0 ? "null" : canonicalJson(item)).join(",")}]`;
  }
  const entries = Object.entries(value).filter(([, member]) => member !== void 0).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
}
function configDigest(config) {
  return createHash("sha256").update(canonicalJson(config)).digest("hex");
}

// schemas/json-schema.ts
function inputJsonSchema(schema, title) {
  const json = external_exports.toJSONSchema(schema, {
    io: "input",
    target: "draft-2020-12",
    override: ({ zodSchema, jsonSchema }) => {
      const examples = external_exports.globalRegistry.get(zodSchema)?.examples;
      if (Array.isArray(examples) && jsonSchema.examples === void 0) {
        jsonSchema.examples = examples;
      }
    }
  });
  return { ...json, title: json.title ?? title };
}
function configJsonSchema() {
  const { required, ...json } = inputJsonSchema(configSchema, "agate config (.github/agate.yml)");
  return { ...json, if: { required: ["extends"] }, else: { required } };
}

// checks/config/json-schema.ts
var cached;
function root() {
  cached ??= configJsonSchema();
  return cached;
}
function resolveBranch(node, value) {
  const branches = node.oneOf ?? node.anyOf;
  if (!branches) return node;
  const record = typeof value === "object" && value !== null ? value : {};
  const match = branches.find(
    (branch) => Object.entries(branch.properties ?? {}).every(
      ([key, sub]) => sub.const === void 0 || record[key] === sub.const
    )
  );
  return match ?? node;
}
function configSchemaAt(path, value) {
  let node = root();
  let current = value;
  for (const segment of path) {
    node = resolveBranch(node, current);
    node = typeof segment === "number" ? node.items : node.properties?.[String(segment)];
    current = typeof current === "object" && current !== null ? current[segment] : void 0;
    if (!node) return void 0;
  }
  return resolveBranch(node, current);
}

// checks/config/parse-config.ts
function parseConfig(text, file = CONFIG_PATH, sources = {}) {
  const own = readDocument(text, file, void 0);
  const ref = extendsIn(own, file, sources.owner ?? null);
  let defaults = null;
  if (ref) {
    const read = sources.defaults;
    if (read === void 0 || typeof read !== "string") {
      const why = read === void 0 ? "they were not read here, and this file alone is not the config" : defaultsProblem(read);
      throw new ConfigurationError(file, [
        at(own, ["extends"], `cannot use the defaults ${ref.reference}: ${why}`)
      ]);
    }
    defaults = readDocument(read, file, ref.reference);
    if (defaults.doc.has("extends")) {
      throw new ConfigurationError(file, [
        at(
          defaults,
          ["extends"],
          "the defaults may not extend other defaults (one level only): put what they need in this file"
        )
      ]);
    }
  }
  const data = defaults ? mergeDefaults(defaults.data, own.data) : own.data;
  const result = configSchema.safeParse(data, { error: genericMessage });
  if (!result.success) {
    const problems = result.error.issues.flatMap((issue) => toProblems(issue, own, defaults, data));
    throw new ConfigurationError(file, problems.sort(byFileAndPosition));
  }
  return { config: result.data, digest: configDigest(result.data), file, extends: ref };
}
function configExtends(text, file = CONFIG_PATH, owner = null) {
  return extendsIn(readDocument(text, file, void 0), file, owner);
}
function extendsIn(own, file, owner) {
  if (!own.doc.has("extends")) return null;
  const parsed = parseExtendsReference(own.data.extends, owner);
  if (!parsed.ok) throw new ConfigurationError(file, [at(own, ["extends"], parsed.problem)]);
  return parsed.ref;
}
function at(parsed, path, message) {
  return {
    path: formatPath(path),
    ...parsed.at(nearestNode(parsed.doc, path).range?.[0] ?? 0),
    message,
    ...parsed.where ? { file: parsed.where } : {}
  };
}
function readDocument(text, file, where) {
  const lines = new import_yaml2.LineCounter();
  const doc = (0, import_yaml2.parseDocument)(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at2 = (offset) => {
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  const problem = (offset, message) => ({
    path: "",
    ...at2(offset),
    message,
    ...where ? { file: where } : {}
  });
  if (doc.errors.length > 0) {
    throw new ConfigurationError(
      file,
      doc.errors.map((error2) => problem(error2.pos[0], `YAML syntax: ${error2.message}`))
    );
  }
  if (doc.contents === null) {
    throw new ConfigurationError(file, [
      problem(0, where ? "the defaults file is empty: it needs at least one key" : EMPTY_MESSAGE)
    ]);
  }
  if (!(0, import_yaml2.isMap)(doc.contents)) {
    throw new ConfigurationError(file, [
      problem(
        doc.contents.range?.[0] ?? 0,
        "the top level must be a mapping with keys such as version and commands"
      )
    ]);
  }
  let data;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (error2) {
    throw new ConfigurationError(file, [problem(0, `YAML: ${error2.message}`)]);
  }
  return { doc, data, at: at2, where };
}
var EMPTY_MESSAGE = "the file is empty: it needs at least `version: 1` and one command, such as\n      version: 1\n      commands:\n        - name: test\n          run: npm test";
function toProblems(issue, own, defaults, data) {
  const path = issue.path;
  const source = (at2) => defaults && originOf(own.doc, defaults.doc, at2) === "defaults" ? defaults : own;
  const located = (parsed2) => parsed2.where ? { file: parsed2.where } : {};
  if (issue.code === "unrecognized_keys") {
    const allowed = Object.keys(configSchemaAt(path, data)?.properties ?? {});
    return issue.keys.map((key) => {
      const { doc, at: at2 } = source([...path, key]);
      return {
        path: formatPath([...path, key]),
        ...at2(keyNode(doc, path, key)?.range?.[0] ?? nearestNode(doc, path).range?.[0] ?? 0),
        message: unknownKeyMessage(key, allowed, path),
        ...located(source([...path, key]))
      };
    });
  }
  const parsed = source(path);
  const missing = !parsed.doc.hasIn(path) && path.length > 0;
  const node = nearestNode(parsed.doc, path);
  return [
    {
      path: formatPath(path),
      ...parsed.at(node.range?.[0] ?? 0),
      message: missing ? missingMessage(path, data) : issue.message,
      ...located(parsed)
    }
  ];
}
function nearestNode(doc, path) {
  for (let depth = path.length; depth > 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if ((0, import_yaml2.isNode)(node)) return node;
  }
  return doc.contents;
}
function keyNode(doc, mapPath, key) {
  const map = mapPath.length === 0 ? doc.contents : doc.getIn(mapPath, true);
  if (!(0, import_yaml2.isMap)(map)) return void 0;
  const pair = map.items.find(
    (item) => (0, import_yaml2.isPair)(item) && (0, import_yaml2.isScalar)(item.key) && String(item.key.value) === key
  );
  return pair && (0, import_yaml2.isNode)(pair.key) ? pair.key : void 0;
}
function missingMessage(path, data) {
  const key = String(path[path.length - 1]);
  const schema = configSchemaAt(path, data);
  const example = schema?.examples?.[0];
  const hint = example === void 0 ? "" : `, for example ${key}: ${(0, import_yaml2.stringify)(example, { collectionStyle: "flow" }).trim()}`;
  return `is missing${hint}`;
}
function unknownKeyMessage(key, allowed, mapPath) {
  const suggestion = allowed.find((name) => closeEnough(key, name));
  const where = mapPath.length === 0 ? "the top level" : formatPath(mapPath);
  const known = allowed.length > 0 ? ` (${where} takes ${allowed.join(", ")})` : "";
  return `unknown key${suggestion ? `; did you mean ${suggestion}?` : ""}${known}`;
}
function formatPath(path) {
  return path.map(
    (segment, index) => typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`
  ).join("");
}
function byFileAndPosition(a, b) {
  return Number(a.file !== void 0) - Number(b.file !== void 0) || a.line - b.line || a.column - b.column;
}
function closeEnough(typed, known) {
  const norm = (s) => s.toLowerCase().replace(/[-_ ]/g, "");
  if (norm(typed) === norm(known)) return true;
  const a = typed.toLowerCase();
  const b = known.toLowerCase();
  if (Math.abs(a.length - b.length) > 2) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost
      );
    }
    previous = row;
  }
  return (previous[b.length] ?? Number.POSITIVE_INFINITY) <= 2;
}
function genericMessage(issue) {
  switch (issue.code) {
    case "invalid_type":
      return `expected ${noun(issue.expected)}, got ${describe(issue.input)}`;
    case "too_small":
      if (issue.origin === "array")
        return `needs at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}`;
      if (issue.origin === "string") return "must not be empty";
      return `must be ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}, got ${describe(issue.input)}`;
    case "too_big":
      if (issue.origin === "array") return `takes at most ${issue.maximum} items`;
      return `must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}, got ${describe(issue.input)}`;
    case "invalid_value":
      return `${describe(issue.input)} is not one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_format":
      return `${describe(issue.input)} is not a valid ${issue.format}`;
    default:
      return void 0;
  }
}
function noun(expected) {
  const nouns = {
    string: "text",
    number: "a number",
    int: "a whole number",
    boolean: "true or false",
    array: "a list",
    object: "a mapping of keys"
  };
  return nouns[expected] ?? expected;
}
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

// action/config-defaults.ts
async function loadConfig(text, file, options) {
  const ref = configExtends(text, file, options.owner);
  const defaults = ref && options.readDefaults ? await options.readDefaults(ref) : void 0;
  return parseConfig(text, file, { owner: options.owner, defaults });
}
var TOKEN_ADVICE = {
  action: (ref) => `a private or internal ${ref.owner}/.github needs a token that can read it (contents: read on ${ref.owner}/.github and nothing more, such as a fine-grained personal access token for that one repository: code in the job can read it), passed as the agate Action's token input; the workflow's own GITHUB_TOKEN reads only the repository it runs in`,
  cli: (ref) => `set GITHUB_TOKEN or GH_TOKEN to a token that can read ${ref.owner}/.github (for example GH_TOKEN=$(gh auth token)); GITHUB_API_URL names another GitHub host`
};
function defaultsReader(options) {
  return async (ref) => {
    const { readRepositoryFile, compareWithDefaultBranch } = await import("./github-IINAVSD6.js");
    const repository = {
      token: options.token,
      baseUrl: options.apiUrl,
      owner: ref.owner,
      repo: ref.repo
    };
    const read = await readRepositoryFile({ ...repository, path: ref.path, sha: ref.sha });
    if (!read.ok) return unreadableFile(read, ref, options);
    const compared = await compareWithDefaultBranch({ ...repository, sha: ref.sha });
    if (!compared.ok) {
      const asked = `whether ${ref.sha} is on ${ref.owner}/${ref.repo}'s default branch`;
      return {
        unreadable: compared.status === "rate-limited" ? `GitHub's rate limit answered when agate asked ${asked} (${compared.message}); run again later${options.token ? "" : ", or give a token: anonymous requests get 60 an hour"}` : `GitHub answered ${compared.status ?? "nothing"} (${compared.message}) when agate asked ${asked}: ${options.advice(ref)}`
      };
    }
    return defaultsAt(ref, read.text, compared.compared);
  };
}
function unreadableFile(read, ref, options) {
  const where = defaultsWhere(ref);
  const token = options.token ? "the token" : "no token was given, and an anonymous request";
  switch (read.status) {
    case 404:
      return {
        unreadable: `GitHub answered 404 for ${where}: the file is not at that commit, or ${token} cannot see ${ref.owner}/${ref.repo}. Check the path and the SHA; ${options.advice(ref)}`
      };
    case 401:
    case 403:
      return {
        unreadable: `GitHub answered ${read.status} (${read.message}) for ${where}: ${options.advice(ref)}`
      };
    case "rate-limited":
      return {
        unreadable: `GitHub's rate limit answered for ${where} (${read.message}); run again later${options.token ? "" : ", or give a token: anonymous requests get 60 an hour"}`
      };
    case "not-a-file":
      return { unreadable: `${where} is not a file: name the defaults file itself` };
    case "too-large":
      return oversizedDefaults(ref, read.message);
    default:
      return {
        unreadable: `cannot read ${where}: ${read.message}; run again once GitHub answers (or check GITHUB_API_URL)`
      };
  }
}

// action/event.ts
import { readFileSync } from "node:fs";
var PULL_REQUEST_EVENTS = /* @__PURE__ */ new Set(["pull_request", "pull_request_target"]);
function readEventContext(env) {
  const name = env.GITHUB_EVENT_NAME ?? "";
  const path = env.GITHUB_EVENT_PATH;
  const payload = path ? JSON.parse(readFileSync(path, "utf8")) : {};
  if (PULL_REQUEST_EVENTS.has(name)) {
    const event = parse(pullRequestEventSchema, payload, name);
    return { kind: "pull_request", name, event, baseSha: event.pull_request.base.sha };
  }
  if (name === "merge_group") {
    const event = parse(mergeGroupEventSchema, payload, name);
    return { kind: "merge_group", name, event, baseSha: event.merge_group.base_sha };
  }
  const repository = parse(anyEventSchema, payload, name || "unknown").repository;
  return {
    kind: "other",
    name,
    defaultBranch: repository?.default_branch ?? null,
    repository: repository?.full_name ?? null
  };
}
function parse(schema, payload, name) {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const fields = result.error.issues.map((issue) => issue.path.join(".")).join(", ");
  throw new Error(
    `the ${name} event payload lacks what agate needs (${fields}); is GITHUB_EVENT_PATH the runner's event file?`
  );
}

// action/isolation.ts
import { execFileSync as execFileSync2, spawn as spawn3, spawnSync } from "node:child_process";
import { createHash as createHash2 } from "node:crypto";
import { realpathSync as realpathSync2, statSync as statSync3 } from "node:fs";
import { constants as constants2, userInfo } from "node:os";
import { dirname as dirname3, resolve as resolve2, sep } from "node:path";

// action/git-guard.ts
import { lstatSync, readdirSync } from "node:fs";
function gitGuardOf(tree, submodules) {
  const paths = /* @__PURE__ */ new Set(["", ...submodules]);
  for (const submodule of submodules) {
    for (const nested of nestedGitDirs(tree, submodule)) paths.add(nested);
  }
  return {
    identities: new Map([...paths].map((path) => [path, identityOf(gitPathOf(tree, path))])),
    submodules
  };
}
function gitGuardBreach(tree, guard) {
  for (const [path, was] of guard.identities) {
    if (identityOf(gitPathOf(tree, path)) === was) continue;
    return path === "" ? "replaced the work tree's .git" : `replaced the .git of submodule ${path}`;
  }
  for (const submodule of guard.submodules) {
    let nested;
    try {
      nested = nestedGitDirs(tree, submodule);
    } catch (error2) {
      return `left submodule ${submodule} unreadable (${error2.message})`;
    }
    const made = nested.find((path) => !guard.identities.has(path));
    if (made !== void 0) return `made a .git at ${made} inside submodule ${submodule}`;
  }
  return null;
}
function nestedGitDirs(tree, submodule) {
  const found2 = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(absolute(tree, dir), { withFileTypes: true, encoding: "buffer" });
    } catch (error2) {
      if (error2.code === "ENOENT") return;
      throw new Error(`cannot read ${dir} to look for a .git: ${error2.message}`);
    }
    for (const entry of entries) {
      const name = entry.name.toString("latin1");
      if (name === ".git") {
        if (dir !== submodule) found2.push(dir);
      } else if (entry.isDirectory()) {
        walk(`${dir}/${name}`);
      }
    }
  };
  walk(submodule);
  return found2;
}
var absolute = (tree, path) => path === "" ? Buffer.from(tree) : Buffer.concat([Buffer.from(`${tree}/`), Buffer.from(path, "latin1")]);
var gitPathOf = (tree, path) => Buffer.concat([absolute(tree, path), Buffer.from("/.git")]);
function identityOf(path) {
  const stat = lstatSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.dev}:${stat.ino}:${stat.isDirectory() ? "d" : "f"}` : "absent";
}

// action/isolation-script.ts
var ISOLATION_SCRIPT = String.raw`
set -euo pipefail
# Nothing of the job's environment decides which programs run here.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
MARKER="agate commands user (made by the agate Action for one job)"

die() { printf 'agate-isolation: %s\n' "$*" >&2; exit 3; }
need() { command -v "$1" >/dev/null 2>&1 || die "$1 is not installed ($2)"; }

# useradd and userdel take a lock on /etc/passwd and give up at once when another job holds it.
retry() {
  local out i
  for ((i = 0; i < 100; i++)); do
    if out=$("$@" 2>&1); then return 0; fi
    case "$out" in *lock*|*"try again"*) sleep 0.05 ;; *) printf '%s\n' "$out" >&2; return 1 ;; esac
  done
  printf '%s\n' "$out" >&2
  return 1
}

# The processes of a uid that can still run (real, effective or saved uid: a setuid program the
# user started counts too), read from /proc as root, so hidepid cannot hide any.
living() {
  grep -s -H -E '^(State|Uid):' /proc/[0-9]*/status | awk -v u="$1" -F'[:\t ]+' '
    $2 == "State" { state[$1] = $3 }
    $2 == "Uid" && state[$1] != "Z" && state[$1] != "X" && ($3 == u || $4 == u || $5 == u) {
      split($1, part, "/"); print part[3]
    }'
}

# Milliseconds on a clock that only moves on, into NOW_MS (no fork): bash 5's EPOCHREALTIME, to
# the second on an older bash.
now_ms() {
  local sec usec
  if [[ -v EPOCHREALTIME ]]; then
    IFS=. read -r sec usec <<<"$EPOCHREALTIME"
    NOW_MS=$(( sec * 1000 + 10#$usec / 1000 ))
  else
    NOW_MS=$(( SECONDS * 1000 ))
  fi
}

# As the user: kill(-1), which reaches every process the user may signal, in one system call that
# no fork can outrun (a process with a kill pending cannot fork). Then, as root, each process still
# listed: one that killed our killer first is not spared. Until none is left, or give up once
# limit_ms has passed (one round at least).
sweep() {
  local uid=$1 gid=$2 limit_ms=$3 deadline pids
  now_ms
  deadline=$(( NOW_MS + limit_ms ))
  while :; do
    setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$BASH" -c 'kill -KILL -1' >/dev/null 2>&1 || true
    pids=$(living "$uid")
    [ -z "$pids" ] && return 0
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    now_ms
    if [ "$NOW_MS" -ge "$deadline" ]; then
      # What the last kill took may be gone by now: a sweep fails only on what still runs.
      [ -z "$(living "$uid")" ] && return 0
      return 1
    fi
    sleep 0.02
  done
}

# A cron or at job of the user's would start a process after the sweep, while agate reads the
# work tree; so they are removed before it.
forget_schedules() {
  if command -v crontab >/dev/null 2>&1; then crontab -r -u "$1" >/dev/null 2>&1 || true; fi
  if command -v atq >/dev/null 2>&1; then
    atq 2>/dev/null | awk -v u="$1" '$NF == u { print $1 }' | xargs -r atrm 2>/dev/null || true
  fi
}

# Everything the user owns in the tree becomes agate's. Symlinks are changed themselves and never
# followed (find does not follow them, chown -h): a link to /etc/shadow or to agate's files moves
# nothing. chmod on everything but links: u+rwX so that no directory the user closed hides a file
# from agate's look at the tree, go-w so that nothing it made open to all stays writable by others
# once it is agate's, ug-s so that no setuid or setgid program of the user's becomes one of
# agate's. One walk for both: each file goes to chmod's batch (links excepted) and chown's;
# whichever batch runs first, root ends with the same modes and owners, and nothing of the user's
# runs meanwhile (swept before). Only the user's own files: a hard link it made to anyone else's
# file (where protected_hardlinks allows it) keeps its owner.
take_back() {
  local uid=$1 ruid=$2 rgid=$3 tree=$4
  find "$tree" -xdev -uid "$uid" \( -type l -o -exec chmod u+rwX,go-w,ug-s -- {} + \) \
    -exec chown -h "$ruid:$rgid" -- {} +
}

reclaim() {
  local name=$1 uid=$2 gid=$3 ruid=$4 rgid=$5 tree=$6 limit_ms=$7 owner=$8
  # Killed before its schedules are forgotten (a living process could schedule again meanwhile),
  # and again after (cron may have started one in between).
  sweep "$uid" "$gid" "$limit_ms" || die "a process of $name survived every kill: $(living "$uid" | head -5 | tr '\n' ' ')"
  forget_schedules "$name"
  sweep "$uid" "$gid" "$limit_ms" || die "a process of $name survived every kill: $(living "$uid" | head -5 | tr '\n' ' ')"
  take_back "$uid" "$ruid" "$rgid" "$tree"
  chown -h -- "$owner" "$tree"
}

# Prints what makes the user unfit for the commands, if anything (setup then removes it).
verify() {
  local name=$1 uid=$2 gid=$3 ruid=$4 out sock
  if [ "$uid" = 0 ] || [ "$gid" = 0 ]; then echo "$name has uid $uid and gid $gid: root"; return; fi
  if [ "$uid" = "$ruid" ]; then echo "$name has uid $uid, agate's own"; return; fi
  if [ "$(awk -F: -v u="$uid" '$3 == u' /etc/passwd | wc -l)" != 1 ]; then echo "another user shares uid $uid with $name"; return; fi
  if [ "$(id -G "$name")" != "$gid" ]; then
    echo "$name is in the groups $(id -Gn "$name"), which may grant root (sudo, docker, adm, ...)"
    return
  fi
  if command -v sudo >/dev/null 2>&1; then
    out=$(sudo -n -l -U "$name" 2>&1 || true)
    case "$out" in *"is not allowed to run sudo"*) ;; *) echo "$name may use sudo: $out"; return ;; esac
  fi
  # Access to the Docker daemon is root on the host.
  for sock in /var/run/docker.sock /run/docker.sock; do
    if [ -S "$sock" ] && setpriv --reuid="$uid" --regid="$gid" --clear-groups -- test -w "$sock"; then
      echo "$sock is writable by every user: the commands could start a root container"
      return
    fi
  done
}

setup() {
  local name=$1 home=$2 ruid=$3 tree=$4 line uid gid gecos shell closed d unfit
  need setpriv "util-linux: agate drops to the commands user and kills its processes with it"
  need useradd "passwd: agate makes a user for the commands with it"
  need userdel "passwd"
  if line=$(getent passwd "$name"); then
    IFS=: read -r _ _ uid gid gecos _ <<<"$line"
    [ "$gecos" = "$MARKER" ] || die "a user named $name exists that agate did not make; remove it (userdel $name)"
    forget_schedules "$name"
    sweep "$uid" "$gid" 10000 || die "processes of the leftover user $name survived every kill"
    retry userdel -r "$name" || die "cannot remove the leftover user $name"
  fi
  shell=/usr/sbin/nologin
  [ -x "$shell" ] || shell=/bin/false
  # A HOME left by an earlier job (its userdel failed) would hand its .npmrc or .gitconfig on.
  rm -rf -- "$home"
  mkdir -p -- "$(dirname -- "$home")"
  retry useradd --system --user-group --create-home --home-dir "$home" --shell "$shell" --comment "$MARKER" "$name" ||
    die "useradd failed for $name"
  uid=$(id -u "$name")
  gid=$(id -g "$name")
  unfit=$(verify "$name" "$uid" "$gid" "$ruid")
  if [ -n "$unfit" ]; then
    retry userdel -r "$name" || true
    die "$unfit"
  fi
  chown "$uid:$gid" -- "$home"
  chmod 0700 -- "$home"
  # The user must reach the work tree: each directory above it must let it pass. Where one is
  # closed to other users (a home directory of mode 750), it alone gets x, by ACL; read and write
  # there stay closed, and finish takes the entry away. From / down, so that a directory is only
  # judged once the user can reach it. (The directories are the positional parameters: this script
  # is a JavaScript template, where a brace after a dollar sign would be read as JavaScript.)
  set --
  d=$tree
  while [ "$d" != / ]; do d=$(dirname -- "$d"); set -- "$d" "$@"; done
  closed=
  while d=$(setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$BASH" -c 'for d; do [ -x "$d" ] || { printf "%s" "$d"; exit; }; done' _ "$@") && [ -n "$d" ]; do
    need setfacl "acl: $d is closed to other users, and agate lets the commands user pass it with an ACL entry"
    setfacl -m "u:$uid:x" -- "$d" || die "cannot let $name pass $d"
    closed+="$d"$'\n'
  done
  printf '%s %s\n' "$uid" "$gid"
  printf '%s' "$closed"
}

finish() {
  local name=$1 uid=$2 gid=$3 ruid=$4 rgid=$5 tree=$6 limit_ms=$7 owner=$8 d
  shift 8
  reclaim "$name" "$uid" "$gid" "$ruid" "$rgid" "$tree" "$limit_ms" "$owner"
  for d in "$@"; do setfacl -x "u:$uid" -- "$d" 2>/dev/null || true; done
  retry userdel -r "$name" || die "cannot remove the commands user $name"
}

main() {
  local step=$1
  shift
  case "$step" in
    setup) setup "$@" ;;
    handover)
      # Only what is agate's changes hands, never a file with another name elsewhere (a hard link
      # to agate's bundle or /etc/passwd would hand that file over too); and the top directory,
      # so that the commands can make files in it. Never .git: a core.fsmonitor or hook planted
      # there runs as the runner's user (who has sudo) in the next git command of the job, such
      # as actions/checkout's post step. Every .git, a submodule's too (git enters each); agate
      # checks after each command that each is the same file.
      chown -h "$1" -- "$3"
      find "$3" -xdev -name .git -prune -o -uid "$2" ! \( -type f -links +1 \) \
        -exec chown -h "$1" -- {} + ;;
    signal) setpriv --reuid="$1" --regid="$2" --clear-groups -- "$BASH" -c 'kill -"$1" -1' _ "$3" >/dev/null 2>&1 || true ;;
    reclaim) reclaim "$@" ;;
    finish) finish "$@" ;;
    *) die "unknown step $step" ;;
  esac
}

# The steps around each command for the whole job, without a sudo and a bash per step: requests
# on standard input (after this script), each the number of fields and then the step and its
# arguments, NUL-terminated; each answered with the step's exit status on a line. Only agate holds
# the request pipe's other end. A step runs in a subshell (its die ends the step, not this loop),
# with standard input closed and without the answer channel (fd 3), so no process it starts can
# read a request or forge an answer; those it starts as the commands user (setpriv) hold nothing
# but /dev/null, for another process of that user may open what they hold through /proc. Only
# the steps around a command are served; setup and finish run as steps of their own.
serve() {
  local n i field status
  exec 3>&1 1>&2
  while IFS= read -r -d '' n; do
    set --
    for ((i = 0; i < n; i++)); do
      IFS= read -r -d '' field || exit 0
      set -- "$@" "$field"
    done
    [ "$#" -gt 0 ] || die "serve: an empty request"
    case "$1" in handover|signal|reclaim) ;; *) die "serve: step $1 is not served" ;; esac
    # Not "( ... ) || status=$?": on the left of || bash ignores set -e in the subshell too, and
    # a step that failed halfway would report success.
    set +e
    ( set -e; main "$@" ) </dev/null 3>&-
    status=$?
    set -e
    printf '%s\n' "$status" >&3
  done
}

if [ "$#" -gt 0 ] && [ "$1" = serve ]; then serve; else main "$@" </dev/null; fi
`;

// action/process-group.ts
import { spawn } from "node:child_process";
import { readdirSync as readdirSync2, readFileSync as readFileSync2 } from "node:fs";
var COMMAND_STDIO = ["ignore", "pipe", "pipe"];
function procState(pid) {
  let stat;
  try {
    stat = readFileSync2(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const [state = "", , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { state, pgrp: Number(pgrp) };
}
var canRun = (state) => state !== "Z" && state !== "X";
function processGroupLauncher() {
  const killGroup = (child, signal) => {
    if (child.pid === void 0) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
    }
  };
  return {
    start: async (bash, args, { cwd, env }) => spawn(bash, args, { cwd, env, detached: true, stdio: COMMAND_STDIO }),
    signal: killGroup,
    async sweep(child, limitMs) {
      killGroup(child, "SIGKILL");
      return child.pid === void 0 || groupGone(child.pid, limitMs);
    }
  };
}
function livingMembers(pgid) {
  try {
    process.kill(-pgid, 0);
  } catch {
    return 0;
  }
  let entries;
  try {
    entries = readdirSync2("/proc");
  } catch {
    return 1;
  }
  let living = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = procState(entry);
    if (proc && proc.pgrp === pgid && canRun(proc.state)) living++;
  }
  return living;
}
async function groupGone(pgid, limitMs) {
  const deadline = performance.now() + limitMs;
  for (; ; ) {
    if (livingMembers(pgid) === 0) return true;
    if (performance.now() > deadline) return false;
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
    }
    await new Promise((resolve5) => setTimeout(resolve5, 5));
  }
}

// action/root-helper.ts
import { spawn as spawn2 } from "node:child_process";
function startRootHelper(file, argv, env) {
  const child = spawn2(file, [...argv, "-s", "--", "serve"], {
    env,
    stdio: ["pipe", "pipe", "pipe"]
  });
  const pending = [];
  let said = "";
  let ended;
  let answers = "";
  const fail = (why) => {
    ended ??= why;
    for (const waiting of pending.splice(0)) {
      waiting.reject(new Error(`${waiting.step} of the commands user failed: ${why}`));
    }
  };
  child.stdin?.on("error", () => void 0);
  child.stderr?.setEncoding("utf8").on("data", (text) => {
    said = (said + text).slice(-16384);
  });
  child.stdout?.setEncoding("utf8").on("data", (text) => {
    answers += text;
    for (let end = answers.indexOf("\n"); end >= 0; end = answers.indexOf("\n")) {
      const status = answers.slice(0, end);
      answers = answers.slice(end + 1);
      const waiting = pending.shift();
      if (!waiting) continue;
      if (status === "0") {
        said = "";
        waiting.resolve();
        continue;
      }
      setTimeout(() => {
        const message = said.trim().replace(/^agate-isolation: /gm, "") || `exit ${status}`;
        said = "";
        waiting.reject(new Error(`${waiting.step} of the commands user failed: ${message}`));
      }, 20);
    }
  });
  child.on("error", (error2) => fail(error2.message));
  child.on("exit", (code, signal) => {
    fail(`the root shell ended (${signal ?? `exit ${code}`}): ${said.trim() || "it said nothing"}`);
  });
  child.stdin?.write(ISOLATION_SCRIPT);
  return {
    pid: child.pid,
    run(step, args) {
      return new Promise((resolve5, reject) => {
        if (ended !== void 0 || !child.stdin?.writable) {
          reject(
            new Error(`${step} of the commands user failed: ${ended ?? "the root shell is gone"}`)
          );
          return;
        }
        pending.push({ step, resolve: resolve5, reject });
        const fields = [step, ...args];
        child.stdin.write(`${fields.length}\0${fields.map((field) => `${field}\0`).join("")}`);
      });
    },
    close(limitMs = 3e4) {
      child.stdin?.destroy();
      const pid = child.pid;
      if (pid === void 0 || pending.length === 0) return;
      const pause = new Int32Array(new SharedArrayBuffer(4));
      const deadline = Date.now() + limitMs;
      while (running(pid) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 5);
    }
  };
}
function running(pid) {
  const proc = procState(pid);
  return proc !== null && canRun(proc.state);
}

// action/timings.ts
var marks = [];
function mark(phase) {
  marks.push([phase, performance.now()]);
}
function printTimings(env) {
  if (env.AGATE_TIMINGS !== "1") return;
  process.stderr.write(`agate-timings ${JSON.stringify(marks)}
`);
}

// action/isolation.ts
function sharedIsolation(reason) {
  return {
    launcher: processGroupLauncher(),
    record: {
      mode: "shared",
      user: currentUser(),
      uid: process.getuid?.() ?? 0,
      reason,
      swept: "process-group"
    },
    finish: () => {
    }
  };
}
function currentUser() {
  try {
    return userInfo().username;
  } catch {
    return String(process.getuid?.() ?? "unknown");
  }
}
function rootAccess() {
  access ??= findRootAccess();
  return access;
}
var access;
function findRootAccess() {
  if (process.platform !== "linux") {
    return {
      kind: "none",
      reason: `agate runs the commands as a separate user on Linux runners only; this runner is ${process.platform}`
    };
  }
  if (process.getuid?.() === 0) return { kind: "root" };
  let sudo;
  try {
    sudo = systemExecutable("sudo");
  } catch {
    return {
      kind: "none",
      reason: `the runner's user (${currentUser()}) is not root and sudo is not installed, so agate cannot make a user for the commands`
    };
  }
  const probe = spawnSync(sudo, ["-n", "true"], {
    encoding: "utf8",
    env: ROOT_ENV,
    timeout: 1e4
  });
  if (probe.status !== 0) {
    const said = (probe.stderr || probe.error?.message || "").trim().split("\n")[0];
    return {
      kind: "none",
      reason: `the runner's user (${currentUser()}) has no passwordless sudo (${said || `sudo exited ${probe.status}`}), so agate cannot make a user for the commands`
    };
  }
  return { kind: "sudo", sudo };
}
var ROOT_ENV = { PATH: "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" };
function commandsUserName(env, cwd) {
  const key = env.RUNNER_TEMP || cwd;
  return `agate-${createHash2("sha256").update(key).digest("hex").slice(0, 10)}`;
}
var FINISH_SWEEP_MS = 1e4;
function isolatedUser(options) {
  const tree = realpathSync2(options.workTree);
  refuseWorkTree(tree, options.agateEnv);
  const top = statSync3(tree);
  const treeOwner = `${top.uid}:${top.gid}`;
  const name = commandsUserName(options.agateEnv, tree);
  const home = `/home/${name}`;
  const root2 = rootRunner(options.access);
  const agateUid = process.getuid?.() ?? 0;
  const agateGid = process.getgid?.() ?? 0;
  const [ids = "", ...opened] = root2("setup", [name, home, String(agateUid), tree]).split("\n").filter(Boolean);
  const [uid, gid] = ids.split(" ").map(Number);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) {
    throw new Error(`setting up the commands user ${name} printed ${JSON.stringify(ids)}`);
  }
  const user = { name, uid, gid, home };
  const ids4 = [String(user.uid), String(user.gid), String(agateUid), String(agateGid)];
  let finished = false;
  let helper;
  const finish = () => {
    if (finished) return;
    finished = true;
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    helper?.close();
    root2("finish", [name, ...ids4, tree, String(FINISH_SWEEP_MS), treeOwner, ...opened]);
    mark("isolation");
  };
  function onSignal(signal) {
    try {
      finish();
    } finally {
      process.exit(128 + (constants2.signals[signal] ?? 15));
    }
  }
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  try {
    const start = options.access.kind === "root" ? startAsRoot(user) : startWithSudo(options.access.sudo, user, userEnv(options.env, user));
    const [shell, ...shellArgs] = rootShell(options.access);
    helper = startRootHelper(shell, shellArgs, ROOT_ENV);
    return {
      launcher: userLauncher(start, helper, {
        user,
        tree,
        treeOwner,
        ids4,
        gitGuard: gitGuardOf(tree, options.submodules)
      }),
      record: { mode: "user", user: name, uid: user.uid, reason: null, swept: "user" },
      finish
    };
  } catch (error2) {
    finish();
    throw error2;
  }
}
function userLauncher(start, root2, at2) {
  const [uid = "", gid = "", agateUid = ""] = at2.ids4;
  return {
    async start(bash, args, { cwd, env }) {
      await root2.run("handover", [uid, agateUid, at2.tree]);
      mark("handover");
      return start(bash, args, cwd, userEnv(env, at2.user));
    },
    signal(_child, signal) {
      void root2.run("signal", [uid, gid, signal.replace(/^SIG/, "")]).catch(() => void 0);
    },
    async sweep(_child, limitMs) {
      mark("commands");
      const limit = String(Math.max(1, Math.ceil(limitMs)));
      await root2.run("reclaim", [at2.user.name, ...at2.ids4, at2.tree, limit, at2.treeOwner]);
      mark("handover");
      const breach = gitGuardBreach(at2.tree, at2.gitGuard);
      if (breach) {
        throw new Error(
          `agate: the commands ${breach}, which the runner's next git command would obey; no record is made. Commands may not write .git: build in a directory of their own`
        );
      }
      return true;
    }
  };
}
function userEnv(env, user) {
  return { ...env, HOME: user.home, USER: user.name, LOGNAME: user.name };
}
function startAsRoot(user) {
  return (bash, args, cwd, env) => (
    // libuv drops every supplementary group (setgroups) before setgid and setuid.
    spawn3(bash, args, {
      cwd,
      env,
      uid: user.uid,
      gid: user.gid,
      detached: true,
      stdio: COMMAND_STDIO
    })
  );
}
function startWithSudo(sudo, user, first) {
  const envProgram = systemExecutable("env");
  const head = ["-n", "-E", "-u", user.name, "--", envProgram];
  const fixes = /* @__PURE__ */ new Map();
  const fixesFor = (env) => {
    const expected = Object.entries(env).filter(
      (entry) => entry[1] !== void 0
    );
    const key = createHash2("sha256").update(JSON.stringify(expected.sort())).digest("hex");
    let known = fixes.get(key);
    if (!known) {
      known = sudoFixes(sudo, head, envProgram, env, expected);
      fixes.set(key, known);
    }
    return known;
  };
  fixesFor(first);
  return (bash, args, cwd, env) => {
    const { unset, set } = fixesFor(env);
    return spawn3(sudo, [...head, ...unset, "-C", cwd, "--", ...set, bash, ...args], {
      cwd: "/",
      env,
      detached: true,
      stdio: COMMAND_STDIO
    });
  };
}
function sudoFixes(sudo, head, envProgram, env, expected) {
  const given = execFileSync2(sudo, [...head, "-C", "/", envProgram, "-0"], {
    env,
    maxBuffer: 64 * 1024 * 1024
  });
  const seen = /* @__PURE__ */ new Map();
  for (const entry of given.toString("utf8").split("\0")) {
    const at2 = entry.indexOf("=");
    if (at2 > 0) seen.set(entry.slice(0, at2), entry.slice(at2 + 1));
  }
  const wanted = new Set(expected.map(([name]) => name));
  const unset = [...seen.keys()].filter((name) => !wanted.has(name)).flatMap((n) => ["-u", n]);
  const set = expected.filter(([name, value]) => seen.get(name) !== value).map(([n, v]) => `${n}=${v}`);
  return { unset, set };
}
function rootShell(access2) {
  const bash = systemExecutable("bash");
  return access2.kind === "root" ? [bash] : [access2.sudo, "-n", "--", bash];
}
function rootRunner(access2) {
  const [file = "", ...shellArgs] = rootShell(access2);
  return (step, args) => {
    const argv = [...shellArgs, "-s", "--", step, ...args];
    const run2 = spawnSync(file, argv, {
      input: ISOLATION_SCRIPT,
      env: ROOT_ENV,
      encoding: "utf8",
      maxBuffer: 16 * 1024 * 1024
    });
    if (run2.status !== 0) {
      const said = (run2.stderr || run2.error?.message || "").trim();
      throw new Error(
        `${step} of the commands user failed: ${said.replace(/^agate-isolation: /gm, "") || `exit ${run2.status ?? run2.signal}`}`
      );
    }
    return run2.stdout;
  };
}
function refuseWorkTree(tree, env) {
  const guarded = [
    env.RUNNER_TEMP,
    env.HOME,
    env.RUNNER_TOOL_CACHE,
    process.argv[1] ? dirname3(process.argv[1]) : void 0,
    dirname3(process.execPath)
  ].filter((path) => Boolean(path));
  const inside = (path) => {
    const full = resolve2(path);
    return full === tree || full.startsWith(tree === sep ? sep : `${tree}${sep}`);
  };
  const held = guarded.find(inside);
  if (tree === sep || held) {
    throw new Error(
      `the work tree ${tree} holds ${held ?? "the whole file system"}, which must stay agate's; check out the repository in a directory of its own`
    );
  }
}

// action/required-commands.ts
import { join as join4 } from "node:path";

// action/git/shadow-git.ts
import { createHash as createHash3 } from "node:crypto";
import {
  closeSync,
  constants as constants3,
  existsSync as existsSync2,
  fstatSync,
  lstatSync as lstatSync2,
  mkdirSync,
  openSync,
  readdirSync as readdirSync3,
  readFileSync as readFileSync3,
  readlinkSync,
  readSync,
  realpathSync as realpathSync3,
  rmSync as rmSync2,
  statSync as statSync4,
  utimesSync,
  writeFileSync as writeFileSync2
} from "node:fs";
import { join as join3, resolve as resolve3 } from "node:path";
var COPIED_CORE_SETTINGS = [
  "filemode",
  "symlinks",
  "ignorecase",
  "precomposeunicode",
  "autocrlf",
  "eol"
];
function createShadowGitWithState(options) {
  const { shadow, paths } = buildShadow(options, true);
  try {
    return { shadow, state: stateOf(shadow, paths ?? /* @__PURE__ */ new Set()) };
  } catch (error2) {
    shadow.remove();
    throw error2;
  }
}
function buildShadow(options, withState) {
  const { sha } = options;
  const gitDir = resolve3(options.gitDir);
  const [root2 = "", realGitDir = "", commonDir = "", objectFormat = ""] = git(options.cwd, [
    "rev-parse",
    "--show-toplevel",
    "--absolute-git-dir",
    "--git-common-dir",
    "--show-object-format"
  ]).trim().split("\n");
  const common = resolve3(options.cwd, commonDir);
  const objects = realpathSync3(join3(common, "objects"));
  const format = objectFormat === "sha256" ? "sha256" : "sha1";
  const config = shadowConfig(options.cwd, format);
  const exclude = excludeRules(common);
  let index;
  let indexTime = 0;
  const files = () => [
    ["HEAD", `${sha}
`],
    ["config", config],
    [join3("objects", "info", "alternates"), `${objects}
`],
    [join3("info", "exclude"), exclude],
    ...index ? [["index", index]] : []
  ];
  const restore = () => {
    rmSync2(gitDir, { recursive: true, force: true });
    for (const dir of ["refs", join3("objects", "info"), "info"]) {
      mkdirSync(join3(gitDir, dir), { recursive: true, mode: 448 });
    }
    for (const [name, content] of files()) writeFileSync2(join3(gitDir, name), content);
    if (index) utimesSync(join3(gitDir, "index"), indexTime, indexTime);
  };
  const shadow = {
    gitDir,
    workTree: root2,
    objectFormat: format,
    submodules: /* @__PURE__ */ new Map(),
    restore,
    remove: () => rmSync2(gitDir, { recursive: true, force: true })
  };
  try {
    restore();
    buildIndex(shadow, realGitDir, sha, options.index ?? "tested-tree");
    const indexFile = join3(gitDir, "index");
    if (existsSync2(indexFile)) {
      index = readFileSync3(indexFile);
      indexTime = Math.floor(statSync4(indexFile).mtimeMs / 1e3);
    }
    restore();
    const listing = withState ? cachedAndChanged(shadow) : { gitlinks: gitlinks(shadow) };
    for (const key of listing.gitlinks) {
      shadow.submodules.set(key, directoryToken(pathOf(shadow, key), format));
    }
    return { shadow, paths: "paths" in listing ? listing.paths : void 0 };
  } catch (error2) {
    shadow.remove();
    throw error2;
  }
}
function shadowConfig(cwd, format) {
  const listed2 = gitMaybe(cwd, ["config", "-z", "--get-regexp", "^core\\."]) ?? "";
  const settings = /* @__PURE__ */ new Map();
  for (const entry of listed2.split("\0")) {
    const [key = "", value = ""] = entry.split("\n");
    const name = COPIED_CORE_SETTINGS.find((known) => `core.${known}` === key.toLowerCase());
    if (name && /^[A-Za-z0-9_-]+$/.test(value)) settings.set(name, value);
  }
  return [
    "[core]",
    `	repositoryformatversion = ${format === "sha1" ? 0 : 1}`,
    "	bare = false",
    "	fsmonitor = false",
    "	hooksPath = /dev/null",
    "	untrackedCache = false",
    "	splitIndex = false",
    ...[...settings].map(([name, value]) => `	${name} = ${value}`),
    ...format === "sha1" ? [] : ["[extensions]", `	objectformat = ${format}`],
    ""
  ].join("\n");
}
function excludeRules(common) {
  const readIfFile = (path) => existsSync2(path) ? readFileSync3(path) : Buffer.alloc(0);
  const userExcludes2 = userExcludesFile();
  return Buffer.concat([
    readIfFile(join3(common, "info", "exclude")),
    Buffer.from("\n"),
    userExcludes2 ? readIfFile(userExcludes2) : Buffer.alloc(0)
  ]);
}
function buildIndex(shadow, realGitDir, sha, mode) {
  const { gitDir } = shadow;
  const realIndex = join3(realGitDir, "index");
  let split = false;
  if (existsSync2(realIndex)) {
    writeFileSync2(join3(gitDir, "index"), readFileSync3(realIndex));
    keepTimestamp(join3(gitDir, "index"), realIndex);
    for (const name of readdirSync3(realGitDir)) {
      if (name.startsWith("sharedindex.")) {
        writeFileSync2(join3(gitDir, name), readFileSync3(join3(realGitDir, name)));
        split = true;
      }
    }
  }
  if (mode !== "as-is") {
    try {
      gitShadow(shadow, ["read-tree", "-m", sha]);
    } catch {
      rmSync2(join3(gitDir, "index"), { force: true });
      gitShadow(shadow, ["read-tree", sha]);
      refreshIndex(shadow);
    }
  } else if (split) {
    gitShadow(shadow, ["update-index", "--no-split-index"]);
  }
}
function gitlinks(shadow) {
  const out = gitShadowBuffer(shadow, ["ls-files", "-z", "--stage"]).toString("latin1");
  return out.split("\0").filter((line) => line.startsWith("160000 ")).map((line) => line.slice(line.indexOf("	") + 1));
}
function cachedAndChanged(shadow) {
  const out = gitShadowBuffer(shadow, [
    "ls-files",
    "-z",
    "-t",
    "--stage",
    "--cached",
    "--modified",
    "--others",
    "--exclude-standard"
  ]).toString("latin1");
  const links = /* @__PURE__ */ new Set();
  const paths = /* @__PURE__ */ new Set();
  for (const entry of out.split("\0")) {
    if (entry.startsWith("? ")) {
      paths.add(entry.slice(2));
      continue;
    }
    const tab = entry.indexOf("	");
    if (tab < 0) continue;
    const path = entry.slice(tab + 1);
    if (entry.startsWith("C ")) paths.add(path);
    else if (entry.slice(2).startsWith("160000 ")) links.add(path);
  }
  return { gitlinks: [...links], paths };
}
var pathOf = (shadow, key) => Buffer.concat([Buffer.from(`${shadow.workTree}/`), Buffer.from(key, "latin1")]);
function directoryToken(path, format) {
  let stat;
  try {
    stat = lstatSync2(path);
  } catch {
    return "deleted";
  }
  if (!stat.isDirectory()) return pathToken(path, format);
  const hash = createHash3("sha256");
  const walk = (dir, prefix) => {
    const names = readdirSync3(dir, { encoding: "buffer" }).sort(Buffer.compare);
    for (const name of names) {
      const full = Buffer.concat([dir, Buffer.from("/"), name]);
      const shown = `${prefix}${name.toString("latin1")}`;
      const token = pathToken(full, format);
      hash.update(`${shown}\0${token}
`);
      if (token === "160000 directory") walk(full, `${shown}/`);
    }
  };
  walk(path, "");
  return `160000 ${hash.digest("hex")}`;
}
function keepTimestamp(copy, original) {
  const time = Math.floor(statSync4(original).mtimeMs / 1e3);
  utimesSync(copy, time, time);
}
function gitMaybeShadow(shadow, args) {
  try {
    gitShadow(shadow, args);
  } catch {
  }
}
function refreshIndex(shadow) {
  gitMaybeShadow(shadow, ["update-index", "-q", "--ignore-submodules", "--refresh"]);
}
function workTreeState(shadow) {
  shadow.restore();
  const out = gitShadowBuffer(shadow, [
    "ls-files",
    "-z",
    "--modified",
    "--others",
    "--exclude-standard"
  ]);
  const paths = /* @__PURE__ */ new Set();
  let start = 0;
  for (let end = out.indexOf(0); end >= 0; end = out.indexOf(0, start)) {
    if (end > start) paths.add(out.subarray(start, end).toString("latin1"));
    start = end + 1;
  }
  return stateOf(shadow, paths);
}
function stateOf(shadow, paths) {
  const root2 = Buffer.from(`${shadow.workTree}/`);
  const state = /* @__PURE__ */ new Map();
  for (const [key, baseline] of shadow.submodules) {
    const token = directoryToken(pathOf(shadow, key), shadow.objectFormat);
    if (token !== baseline || paths.has(key)) state.set(key, token);
    paths.delete(key);
  }
  for (const key of [...paths].sort()) {
    const nested = key.endsWith("/");
    const path = Buffer.concat([root2, Buffer.from(nested ? key.slice(0, -1) : key, "latin1")]);
    state.set(
      key,
      nested ? directoryToken(path, shadow.objectFormat) : pathToken(path, shadow.objectFormat)
    );
  }
  return new Map([...state].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}
var pathText = (key) => Buffer.from(key, "latin1").toString("utf8");
function pathToken(path, format) {
  let stat;
  try {
    stat = lstatSync2(path);
  } catch {
    return "deleted";
  }
  if (stat.isSymbolicLink()) {
    return `120000 ${blobId(format, [readlinkSync(path, { encoding: "buffer" })])}`;
  }
  if (stat.isDirectory()) return "160000 directory";
  if (!stat.isFile()) return "other";
  let fd;
  try {
    fd = openSync(path, constants3.O_RDONLY | constants3.O_NOFOLLOW | constants3.O_NONBLOCK);
  } catch {
    return "unreadable";
  }
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) return "other";
    const mode = opened.mode & 73 ? "100755" : "100644";
    const buffer = Buffer.alloc(1024 * 1024);
    const hash = createHash3(format);
    hash.update(`blob ${opened.size}\0`);
    let left = opened.size;
    while (left > 0) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, left), null);
      if (read === 0) break;
      hash.update(buffer.subarray(0, read));
      left -= read;
    }
    return `${mode} ${left === 0 ? hash.digest("hex") : "changing"}`;
  } finally {
    closeSync(fd);
  }
}
function blobId(format, parts) {
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const hash = createHash3(format).update(`blob ${size}\0`);
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
}

// action/git/snapshot.ts
import { createHash as createHash4 } from "node:crypto";
var HEAD_COMMIT = "HEAD^{commit}";
function testedCommit(cwd, head = readObjects(cwd, [HEAD_COMMIT])[0]) {
  if (head?.type !== "commit") {
    throw new Error(`no commit checked out in ${cwd}: run agate in a git checkout`);
  }
  const { sha } = head;
  const header = head.content.toString("utf8").split("\n\n", 1)[0] ?? "";
  const field = (name) => header.split("\n").filter((line) => line.startsWith(`${name} `)).map((line) => line.slice(name.length + 1).trim());
  const [tree] = field("tree");
  if (!tree) throw new Error(`the commit ${sha} has no tree: is the checkout corrupt?`);
  return { sha, tree_sha: tree, parents: field("parent") };
}
function changedBetween(before, after) {
  const keys = /* @__PURE__ */ new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}
function listed(keys) {
  return keys.slice(0, CHANGED_PATHS_LIMIT).map(pathText);
}
function testedSnapshot(commit, before, after) {
  return {
    ...commit,
    clean_before: before.size === 0,
    dirty_before: listed([...before.keys()]),
    clean: after.size === 0,
    dirty_digest: after.size ? dirtyDigest(after) : null
  };
}
function dirtyDigest(state) {
  const hash = createHash4("sha256");
  for (const [key, token] of state) hash.update(`${pathText(key)}\0${token}
`);
  return hash.digest("hex");
}

// action/output-digest.ts
import { createHash as createHash5 } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
var MAX_LINE_CHARS = 64 * 1024;
var HASH_PIECE_CHARS = 64 * 1024;
var OutputDigest = class {
  raw = createHash5("sha256");
  normalised = createHash5("sha256");
  decoder = new StringDecoder("utf8");
  partialLine = "";
  pending = "";
  /** The last bytes seen, as a ring: `tailEnd` is where the next byte goes. */
  tail = Buffer.allocUnsafe(OUTPUT_TAIL_BYTES);
  tailEnd = 0;
  bytes = 0;
  update(chunk) {
    this.bytes += chunk.length;
    this.raw.update(chunk);
    this.keepTail(chunk);
    this.addText(this.decoder.write(chunk));
  }
  finish() {
    this.addText(this.decoder.end());
    this.hashNormalised(normaliseLine(this.partialLine));
    this.partialLine = "";
    this.normalised.update(this.pending);
    this.pending = "";
    const tail = this.bytes < OUTPUT_TAIL_BYTES ? this.tail.subarray(0, this.bytes) : Buffer.concat([this.tail.subarray(this.tailEnd), this.tail.subarray(0, this.tailEnd)]);
    return {
      bytes: this.bytes,
      sha256: this.raw.digest("hex"),
      normalized_sha256: this.normalised.digest("hex"),
      tail: decodeTail(tail),
      truncated: this.bytes > tail.length
    };
  }
  addText(text) {
    const last = text.lastIndexOf("\n");
    if (last >= 0) {
      let from = 0;
      if (this.partialLine !== "") {
        const first = text.indexOf("\n");
        this.hashNormalised(`${normaliseLine(this.partialLine + text.slice(0, first))}
`);
        this.partialLine = "";
        from = first + 1;
      }
      if (last >= from) this.hashNormalised(normaliseOutput(text.slice(from, last + 1)));
      this.partialLine = text.slice(last + 1);
    } else {
      this.partialLine += text;
    }
    if (this.partialLine.length > MAX_LINE_CHARS) {
      this.hashNormalised(normaliseLine(this.partialLine));
      this.partialLine = "";
    }
  }
  /** Short pieces gather in `pending`; a piece that fills it is hashed as it is, not copied. */
  hashNormalised(text) {
    if (this.pending.length + text.length < HASH_PIECE_CHARS) {
      this.pending += text;
      return;
    }
    if (this.pending !== "") this.normalised.update(this.pending);
    this.normalised.update(text);
    this.pending = "";
  }
  /** Copies the chunk's last bytes into the ring: one copy per byte, no allocation. */
  keepTail(chunk) {
    const size = OUTPUT_TAIL_BYTES;
    let bytes = chunk;
    if (bytes.length >= size) {
      bytes = bytes.subarray(bytes.length - size);
      this.tailEnd = 0;
    }
    const first = Math.min(bytes.length, size - this.tailEnd);
    bytes.copy(this.tail, this.tailEnd, 0, first);
    bytes.copy(this.tail, 0, first);
    this.tailEnd = (this.tailEnd + bytes.length) % size;
  }
};
function decodeTail(tail) {
  let start = 0;
  while (start < tail.length && start < 4 && ((tail[start] ?? 0) & 192) === 128) start++;
  return tail.subarray(start).toString("utf8");
}

// action/stream-memory.ts
import { setFlagsFromString } from "node:v8";
var kept = false;
function keepStreamingMemorySmall() {
  if (kept) return;
  kept = true;
  setFlagsFromString("--semi-space-growth-factor=1");
  setFlagsFromString("--no-opt");
}

// action/run-command.ts
async function runCommand(options) {
  const now = options.now ?? (() => /* @__PURE__ */ new Date());
  const grace = options.killGraceMs ?? 5e3;
  keepStreamingMemorySmall();
  const digest = new OutputDigest();
  const started = now();
  const startedMs = performance.now();
  const bash = options.bash ?? systemExecutable("bash");
  const launcher = options.launcher ?? processGroupLauncher();
  const child = await launcher.start(
    bash,
    ["--noprofile", "--norc", "-eo", "pipefail", "-c", options.run],
    {
      cwd: options.cwd,
      env: options.env
    }
  );
  if (!child.stdout || !child.stderr) throw new Error("agate: the command's output is not piped");
  const forward = (chunk) => {
    digest.update(chunk);
    options.onOutput?.(chunk);
  };
  child.stdout.on("data", forward);
  child.stderr.on("data", forward);
  let timedOut = false;
  let killTimer;
  const timeout = setTimeout(() => {
    timedOut = true;
    launcher.signal(child, "SIGTERM");
    killTimer = setTimeout(() => launcher.signal(child, "SIGKILL"), grace);
  }, options.timeoutMs);
  const exit = await new Promise(
    (resolve5, reject) => {
      child.once("error", reject);
      child.once("exit", (code, signal) => resolve5({ code, signal }));
    }
  ).finally(() => clearTimeout(timeout));
  clearTimeout(killTimer);
  if (!await launcher.sweep(child, options.goneLimitMs ?? 1e4)) {
    throw new Error(
      `agate: a process of the command ${JSON.stringify(options.name)} survived SIGKILL; no record is made while it may still write`
    );
  }
  await drain([child.stdout, child.stderr], 2e3);
  return {
    name: options.name,
    run: options.run,
    exit_code: timedOut ? null : exit.code,
    signal: timedOut ? exit.signal ?? "SIGTERM" : exit.signal,
    timed_out: timedOut,
    started_at: started.toISOString(),
    duration_ms: Math.round(performance.now() - startedMs),
    output: digest.finish()
  };
}
async function drain(streams, limitMs) {
  const ended = streams.map(
    (stream) => new Promise((resolve5) => {
      if (stream.readableEnded || stream.destroyed) return resolve5();
      stream.once("end", resolve5);
      stream.once("close", resolve5);
    })
  );
  let timer;
  const limit = new Promise((resolve5) => {
    timer = setTimeout(resolve5, limitMs);
  });
  await Promise.race([Promise.all(ended), limit]);
  clearTimeout(timer);
  for (const stream of streams) stream.destroy();
}

// action/required-commands.ts
async function parseBaseConfig(text, path, sha, options) {
  try {
    return await loadConfig(text, path, {
      owner: options.owner ?? options.repository?.split("/")[0] ?? null,
      readDefaults: options.readDefaults
    });
  } catch (error2) {
    if (!(error2 instanceof ConfigurationError)) throw error2;
    throw new ConfigurationError(
      error2.file,
      error2.problems,
      `${path} at the base commit ${sha.slice(0, 7)} is not a valid agate config; fix it on the base branch`
    );
  }
}
async function runRequiredCommands(options) {
  const { cwd, log } = options;
  const now = options.now ?? (() => /* @__PURE__ */ new Date());
  const base = await readBase(options);
  if (base.kind === "not-adopted") return base;
  const { config, digest } = base;
  await options.beforeCommands?.(config);
  const commit = testedCommit(cwd, base.head);
  const { shadow, state: before } = createShadowGitWithState({
    cwd,
    sha: commit.sha,
    gitDir: join4(options.stateDir, "shadow-git")
  });
  mark("snapshot");
  const env = commandEnvironment(options.env);
  let ran;
  let isolation;
  try {
    isolation = openIsolation(options, config, shadow.workTree, env, [...shadow.submodules.keys()]);
    mark("isolation");
    if (isolation.record.mode === "shared") {
      log.info(
        `agate: the commands run as agate's own user (${isolation.record.user}): ${isolation.record.reason}; the record says so.`
      );
    }
    if (before.size > 0) warnDirty(options, before, commit.sha);
    ran = await runEach(config, { cwd, env, log, now, shadow, isolation, before });
  } catch (error2) {
    shadow.remove();
    try {
      isolation?.finish();
    } catch {
    }
    throw error2;
  }
  shadow.remove();
  isolation.finish();
  const record = commandRecordSchema.parse({
    kind: "agate.command-record",
    version: 2,
    repository: options.repository,
    tested: testedSnapshot(commit, before, ran.state),
    pull_request: options.pullRequest ? {
      number: options.pullRequest.number,
      head_sha: options.pullRequest.head.sha,
      base_sha: options.pullRequest.base.sha
    } : null,
    merge_group: options.mergeGroup ? {
      head_ref: options.mergeGroup.head_ref,
      head_sha: options.mergeGroup.head_sha,
      base_sha: options.mergeGroup.base_sha
    } : null,
    commands: ran.commands,
    runner: runnerInfo(options.env),
    grader: { agate_version: AGATE_VERSION, config_digest: digest },
    workflow: workflowRun(options.env),
    isolation: isolation.record,
    cut: [],
    created_at: now().toISOString()
  });
  return { kind: "ran", record, config };
}
async function readBase(options) {
  const { cwd, log } = options;
  const configSpec = `${options.baseSha}:${options.configPath}`;
  const combined = !/[\n\r]/.test(configSpec);
  const [head, configObject] = combined ? readObjects(cwd, [HEAD_COMMIT, configSpec]) : [void 0, void 0];
  const base = await readConfigAtBase({
    cwd,
    sha: options.baseSha,
    path: options.configPath,
    api: options.readViaApi,
    ...combined ? { read: configObject ?? null } : {}
  });
  if (base.text === null) return { kind: "not-adopted", baseSha: options.baseSha };
  const loaded = await parseBaseConfig(base.text, options.configPath, options.baseSha, options);
  const { config, digest } = loaded;
  mark("config");
  const extended = loaded.extends ? ` extending ${loaded.extends.reference}` : "";
  log.info(
    `agate ${AGATE_VERSION}: ${counted(config.commands.length, "required command")} from ${options.configPath} at base ${options.baseSha} (read with ${base.via})${extended}, config digest ${digest}`
  );
  return { kind: "read", config, digest, head: head ?? void 0 };
}
function warnDirty(options, before, sha) {
  const { log } = options;
  const sample = [...before.keys()].slice(0, 5).map(pathText).join(", ");
  (log.warning ?? log.info)(
    options.local ? `the work tree has uncommitted changes (${before.size} path(s), such as ${sample}): the commands run on them, but the record is of the commit ${sha.slice(0, 7)}, and the App refuses a record whose work tree differed from its commit before the first command (clean_before: false). Commit them, then run again, for a record that matches what CI will see.` : `agate: before the first command, ${before.size} path(s) already differed from the tested commit ${sha.slice(0, 7)} (an earlier step changed them), such as ${sample}; the record says so (clean_before: false).`
  );
}
async function runEach(config, run2) {
  const { cwd, env, log, now, shadow, isolation } = run2;
  const commands = [];
  let state = run2.before;
  for (const command2 of config.commands) {
    const launcher = command2.privileged ? processGroupLauncher() : isolation.launcher;
    const result = await log.command(
      command2.name,
      () => runCommand({
        name: command2.name,
        run: command2.run,
        timeoutMs: command2.timeout,
        cwd,
        env,
        launcher,
        onOutput: (chunk) => log.output(chunk),
        now
      })
    );
    mark("commands");
    const after = workTreeState(shadow);
    mark("snapshot");
    const changed = changedBetween(state, after);
    state = after;
    commands.push({
      ...result,
      changed_paths: listed(changed),
      changed_paths_count: changed.length,
      ...command2.privileged ? { privileged: true } : {}
    });
  }
  return { commands, state };
}
function openIsolation(options, config, workTree, env, submodules) {
  if (options.isolation !== "commands-user") {
    return sharedIsolation("a local `agate run` runs the commands as the user who runs it");
  }
  const access2 = rootAccess();
  let reason;
  if (access2.kind === "none") {
    reason = access2.reason;
  } else {
    try {
      return isolatedUser({ access: access2, workTree, env, agateEnv: options.env, submodules });
    } catch (error2) {
      reason = `agate could not make a user of their own for the commands: ${error2 instanceof Error ? error2.message : String(error2)}`;
    }
  }
  if (config.evidence.isolation === "required") {
    throw new Error(
      `agate: refusing to run the commands: ${reason}. The base config requires them to run as a user of their own (evidence.isolation: required): run the job on a GitHub-hosted runner, or give the runner's user passwordless sudo, or run the job as root in a container with useradd and setpriv installed. On a self-hosted runner where none of that is possible, set evidence.isolation: shared-allowed in the base config to accept records the code under test could change.`
    );
  }
  return sharedIsolation(reason);
}

// action/same-uid.ts
import { spawnSync as spawnSync2 } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync as mkdtempSync2, rmSync as rmSync3 } from "node:fs";
import { tmpdir as tmpdir2 } from "node:os";
import { basename, dirname as dirname4, join as join5 } from "node:path";
function refuseInspectorSignal() {
  process.on("SIGUSR1", () => {
    process.stderr.write(
      "agate: ignored SIGUSR1 (something tried to open Node's inspector in agate's process)\n"
    );
  });
}
var COPY_PREFIX = "agate-node-";
function becomeUndumpable(env) {
  const copy = env.AGATE_UNDUMPABLE_NODE;
  if (copy && process.execPath === copy && basename(dirname4(copy)).startsWith(COPY_PREFIX)) {
    rmSync3(dirname4(copy), { recursive: true, force: true });
    delete process.env.AGATE_UNDUMPABLE_NODE;
    return;
  }
  const execve = process.execve;
  if (typeof execve !== "function" || process.platform !== "linux") return;
  let dir;
  try {
    dir = mkdtempSync2(join5(env.RUNNER_TEMP || tmpdir2(), COPY_PREFIX));
    const node = join5(dir, "node");
    copyFileSync(process.execPath, node);
    chmodSync(node, 64);
    const tried = spawnSync2(node, ["-e", "0"], { stdio: "ignore", timeout: 3e4 });
    if (tried.status !== 0) throw new Error(`the copy of node in ${dir} does not run`);
    const flags = process.allowedNodeEnvironmentFlags.has("--disable-sigusr1") ? ["--disable-sigusr1"] : [];
    execve.call(process, node, [node, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
      ...process.env,
      AGATE_UNDUMPABLE_NODE: node
    });
  } catch (error2) {
    if (dir) rmSync3(dir, { recursive: true, force: true });
    process.stderr.write(
      `agate: could not execute itself undumpable (${error2 instanceof Error ? error2.message : String(error2)}); its environment stays readable by the commands
`
    );
  }
}

// checks/gate/isolation.ts
function isolationLine(record) {
  const privileged = record.commands.filter((c) => c.privileged).map((c) => codeSpan(c.name, 80));
  const privilegedNote = privileged.length > 0 ? ` **${privileged.join(", ")} ran as agate's own user** (commands[].privileged) and could have changed this record.` : "";
  const isolation = record.isolation;
  if (!isolation) {
    return `**Not isolated:** agate ${codeSpan(record.grader.agate_version, 40)} ran the commands as its own user, so the code under test could have changed this record.${privilegedNote}`;
  }
  if (isolation.mode === "shared") {
    return `**Not isolated:** the commands ran as agate's own user ${codeSpan(isolation.user, 60)} (${codeSpan(isolation.reason ?? "no reason given", 300)}), so the code under test could have changed this record; evidence.isolation: shared-allowed accepts that. ${SWEPT[isolation.swept]}${privilegedNote}`;
  }
  return `Isolated: the commands ran as ${codeSpan(isolation.user, 60)}, a user of their own without sudo, and ${isolation.swept === "user" ? "none of its processes outlived a command." : SWEPT[isolation.swept].toLowerCase()}${privilegedNote}`;
}
var SWEPT = {
  user: "Every process of theirs was killed after each command.",
  "process-group": "Each command's process group was killed after it (a process that left it with setsid was not seen)."
};

// action/summary.ts
function resultText(command2) {
  return outcomeText({ ...command2, duration_ms: void 0 });
}
function changedText(command2) {
  if (command2.changed_paths_count === 0) return "none";
  const named = command2.changed_paths.slice(0, 3).map((path) => codeSpan(path));
  const more = command2.changed_paths_count - named.length;
  return `${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}
var commandsWrote = (record) => record.commands.some((c) => c.changed_paths_count > 0);
function nextAction(record) {
  const failed = failedCommands(record);
  if (failed.length > 0)
    return `make ${failed.map((name) => codeSpan(name, 80)).join(", ")} pass, then push (the output is below)`;
  if (!record.tested.clean_before)
    return "make the workflow's steps before agate leave the checkout as it is (put installs and builds into the config's commands), then run it again";
  if (!record.tested.clean && commandsWrote(record))
    return "make the commands leave the work tree clean, or list what they write in commands[].writes";
  return "nothing here; the `agate` check on the commit decides whether it may merge";
}
function headline(record) {
  const failed = failedCommands(record).length;
  const total = record.commands.length;
  const on = `on ${shortSha(record.tested.sha)}`;
  return failed === 0 ? `${total} of ${total} required commands passed ${on}` : `${failed} of ${total} required commands failed ${on}`;
}
function renderRecordMarkdown(record, tailChars = 8e3) {
  const tested = record.tested;
  const facts = [
    `Tested commit \`${tested.sha}\` (tree \`${tested.tree_sha}\`)` + (tested.parents.length > 1 ? `, a merge of ${tested.parents.map((p) => `\`${shortSha(p)}\``).join(" and ")}` : ""),
    record.pull_request ? `Pull request #${record.pull_request.number}: head \`${shortSha(record.pull_request.head_sha)}\`, base \`${shortSha(record.pull_request.base_sha)}\`` : null,
    tested.clean_before ? null : `**The work tree already differed from the tested commit before the first command** (an earlier step changed ${tested.dirty_before.slice(0, 10).map((path) => codeSpan(path)).join(", ")}${tested.dirty_before.length > 10 ? ", ..." : ""}).`,
    tested.clean ? "The work tree was clean after the commands." : !tested.clean_before && !commandsWrote(record) ? "The commands changed nothing; the work tree still differed after them, as before." : `**The work tree was not clean after the commands** (changed files digest \`${tested.dirty_digest}\`).`,
    `Config digest \`${record.grader.config_digest}\`, agate ${record.grader.agate_version}.`,
    isolationLine(record)
  ];
  const lines = [
    `### agate: ${headline(record)}. Next: ${nextAction(record)}.`,
    "",
    ...facts.filter((fact) => fact !== null).map((fact) => `- ${fact}`),
    "",
    "| command | result | duration | files changed |",
    "| --- | --- | --- | --- |",
    ...record.commands.map(
      (c) => `| ${tableCell(c.name)} | ${commandPassed(c) ? "\u2705" : "\u274C"} ${resultText(c)} | ${durationText(c.duration_ms)} | ${tableCell(changedText(c))} |`
    )
  ];
  const failing = record.commands.filter((c) => !commandPassed(c));
  const passing = record.commands.filter((c) => commandPassed(c));
  for (const command2 of [...failing, ...passing]) {
    const failed = !commandPassed(command2);
    const tail = command2.output.tail.slice(-(failed ? tailChars : Math.floor(tailChars / 4)));
    if (!failed && tail.trim() === "") continue;
    const note = tail.length < command2.output.bytes ? ` (last ${tail.length} characters of ${command2.output.bytes} bytes)` : "";
    lines.push(
      "",
      ...outputDetails({
        label: `${command2.name}: ${outcomeText(command2)}`,
        note,
        tail,
        open: failed,
        lead: codeSpan(command2.run, 2e3)
      })
    );
  }
  if (record.cut.length > 0)
    lines.push("", `Shortened to fit GitHub's limits: ${record.cut.join(", ")}.`);
  return `${lines.join("\n")}
`;
}

// action/workflow-commands.ts
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync as existsSync3, writeFileSync as writeFileSync3 } from "node:fs";
import { EOL } from "node:os";
var escapeData = (text) => text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
var escapeProperty = (text) => escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
function command(name, properties, message) {
  const props = Object.entries(properties).filter(([, value]) => Boolean(value)).map(([key, value]) => `${key}=${escapeProperty(String(value))}`).join(",");
  process.stdout.write(`::${name}${props ? ` ${props}` : ""}::${escapeData(message)}${EOL}`);
}
var annotation = (properties = {}) => ({
  title: properties.title,
  file: properties.file,
  line: properties.startLine,
  col: properties.startColumn
});
function getInput(name, env = process.env) {
  return (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}
var info = (message) => {
  process.stdout.write(`${message}${EOL}`);
};
var warning = (message, properties) => command("warning", annotation(properties), message);
var error = (message, properties) => command("error", annotation(properties), message);
var startGroup = (name) => command("group", {}, name);
var endGroup = () => command("endgroup", {}, "");
function setFailed(message) {
  process.exitCode = 1;
  error(message);
}
function setOutput(name, value, env = process.env) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const file = env.GITHUB_OUTPUT;
  if (!file) {
    process.stdout.write(EOL);
    command("set-output", { name }, text);
    return;
  }
  if (!existsSync3(file)) throw new Error(`Missing file at path: ${file}`);
  const delimiter2 = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter2) || text.includes(delimiter2)) {
    throw new Error(`Unexpected input: the output ${name} contains the delimiter ${delimiter2}`);
  }
  appendFileSync(file, `${name}<<${delimiter2}${EOL}${text}${EOL}${delimiter2}${EOL}`, "utf8");
}
function writeSummary(markdown, env = process.env) {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  if (!existsSync3(file)) {
    throw new Error(
      `Unable to access summary file: '${file}'. Check if the file has correct read/write permissions.`
    );
  }
  writeFileSync3(file, markdown, "utf8");
}

// action/main.ts
async function run() {
  refuseInspectorSignal();
  if (rootAccess().kind === "none") becomeUndumpable(process.env);
  mark("load");
  const env = process.env;
  try {
    await runAction(env);
    printTimings(env);
  } catch (error2) {
    try {
      resetFileCommands(env);
    } catch {
    }
    if (error2 instanceof ConfigurationError) annotate(error2);
    setFailed(error2 instanceof Error ? error2.message : String(error2));
  }
}
function readInputs() {
  const names = Object.keys(actionInputsSchema.shape);
  const raw = Object.fromEntries(
    names.map((name) => [name, getInput(name) || void 0]).filter(([, v]) => v !== void 0)
  );
  const parsed = actionInputsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `agate: invalid inputs: ${parsed.error.issues.map((i) => i.message).join("; ")}`
    );
  }
  return parsed.data;
}
async function runAction(env) {
  systemExecutable("git");
  systemExecutable("bash");
  const inputs = readInputs();
  const cwd = resolve4(inputs["working-directory"]);
  const context = readEventContext(env);
  const repository = env.GITHUB_REPOSITORY ?? (context.kind === "other" ? context.repository : null);
  const [owner, repo] = (repository ?? "").split("/");
  const readViaApi = inputs.token && owner && repo ? async (sha, path) => {
    const { ActionGitHub } = await import("./github-IINAVSD6.js");
    return new ActionGitHub(inputs.token, owner, repo, env.GITHUB_API_URL).readFileAtCommit(
      sha,
      path
    );
  } : void 0;
  const readDefaults = defaultsReader({
    token: inputs.token || void 0,
    apiUrl: env.GITHUB_API_URL,
    advice: TOKEN_ADVICE.action
  });
  const stateDir = env.RUNNER_TEMP ? join6(env.RUNNER_TEMP, "agate") : localStateDir(cwd);
  const artifactClient = await loadArtifactClient(env);
  const traceInput = getInput("trace").trim();
  const tracing = traceInput ? await import("./trace-summary-YGVPG2ES.js") : void 0;
  let traces = [];
  const outcome = await runRequiredCommands({
    cwd,
    configPath: inputs.config,
    baseSha: baseSha(cwd, context),
    env,
    stateDir,
    log: actionsLog(),
    readViaApi,
    readDefaults,
    repository: repository ?? null,
    pullRequest: context.kind === "pull_request" ? context.event.pull_request : void 0,
    mergeGroup: context.kind === "merge_group" ? context.event.merge_group : void 0,
    beforeCommands: async (config) => {
      if (tracing) traces = await tracing.readTraces(cwd, traceInput, config.progress);
    },
    isolation: "commands-user"
  });
  if (outcome.kind === "not-adopted") {
    info(
      `agate: the base commit ${outcome.baseSha} has no ${inputs.config}, so this repository has not adopted agate; nothing to do.`
    );
    return;
  }
  await reportRecord(outcome.record, {
    inputs,
    cwd,
    env,
    stateDir,
    repository: repository ?? null,
    traces,
    tracing,
    artifactClient
  });
}
async function reportRecord(record, report) {
  const { inputs, cwd, env, stateDir, repository, traces, tracing, artifactClient } = report;
  const json = `${JSON.stringify(record, null, 2)}
`;
  const recordPath = inputs["record-path"] ? resolve4(cwd, inputs["record-path"]) : join6(stateDir, RECORD_FILE_NAME);
  mkdirSync2(dirname5(recordPath), { recursive: true });
  writeRegularFile(recordPath, json);
  mark("record");
  let upload;
  try {
    upload = await uploadRecord(json, { env, tempDir: stateDir, client: artifactClient });
  } catch (error2) {
    if (!(error2 instanceof RecordUploadError)) throw error2;
    upload = error2;
  }
  resetFileCommands(env);
  const failed = failedCommands(record);
  setOutput("passed", failed.length === 0);
  setOutput("record-path", recordPath);
  setOutput("tested-sha", record.tested.sha);
  setOutput("tree-sha", record.tested.tree_sha);
  setOutput("failed-commands", JSON.stringify(failed));
  if (repository) setOutput("status", JSON.stringify(recordStatus(record, repository)));
  let traceMarkdown = "";
  if (tracing && traces.length > 0) {
    traceMarkdown = await tracing.traceSection(traces, {
      env,
      tempDir: stateDir,
      client: artifactClient
    });
  }
  const markdown = `${renderRecordMarkdown(record)}
${whereTheRecordWent(upload)}
${traceMarkdown}`;
  writeSummary(markdown, env);
  mark("upload");
  if (upload instanceof RecordUploadError) {
    setFailed(upload.message);
    return;
  }
  concludeStep(record, upload, recordPath, inputs["fail-on-command-failure"]);
}
function concludeStep(record, upload, recordPath, failOnCommandFailure) {
  const failed = failedCommands(record);
  if (upload.kind === "uploaded") {
    info(
      `agate: uploaded the command record as the artifact ${upload.name} (id ${upload.id}).`
    );
  } else {
    warning(
      `agate: not on a GitHub Actions runner (no ACTIONS_RUNTIME_TOKEN or ACTIONS_RESULTS_URL), so the command record was not uploaded and the App cannot see this evidence; it is in the job summary and at ${recordPath}.`
    );
  }
  if (failed.length > 0) {
    const message = `agate: ${headline(record)}: ${failed.join(", ")}`;
    if (failOnCommandFailure) setFailed(message);
    else
      warning(
        `${message} (not failing the step: fail-on-command-failure is false; the App refuses a failing record whose step succeeded)`
      );
  } else {
    info(`agate: ${headline(record)}.`);
  }
}
function resetFileCommands(env) {
  for (const { name } of FILE_COMMANDS) {
    const path = env[name];
    if (path) writeRegularFile(path, "");
  }
}
function writeRegularFile(path, content) {
  try {
    if (!lstatSync3(path).isFile()) unlinkSync(path);
  } catch {
  }
  const fd = openSync2(
    path,
    constants4.O_WRONLY | constants4.O_CREAT | constants4.O_TRUNC | constants4.O_NOFOLLOW
  );
  try {
    writeFileSync4(fd, content);
  } finally {
    closeSync2(fd);
  }
}
function whereTheRecordWent(upload) {
  if (upload instanceof RecordUploadError) {
    return upload.tampering ? "**The record could not be uploaded: an artifact of its name was already in this run attempt. The job was tampered with; the App will refuse this attempt's record.**" : `**The record was not uploaded**, so the App cannot see it: ${upload.message.replace(/^agate: /, "")}`;
  }
  return upload.kind === "uploaded" ? `The record is the artifact \`${upload.name}\` (id ${upload.id}) of this run.` : "The record was not uploaded (not on a GitHub Actions runner); the App cannot see it.";
}
function baseSha(cwd, context) {
  if (context.kind !== "other") return context.baseSha;
  if (context.defaultBranch) {
    fetchShallow(cwd, context.defaultBranch);
    const sha = gitMaybe(cwd, ["rev-parse", "--verify", "--quiet", "FETCH_HEAD^{commit}"]) ?? gitMaybe(cwd, [
      "rev-parse",
      "--verify",
      "--quiet",
      `origin/${context.defaultBranch}^{commit}`
    ]);
    if (sha) return sha.trim();
  }
  warning("agate: cannot find the default branch's commit; reading the config at HEAD.");
  return git(cwd, ["rev-parse", "HEAD"]).trim();
}
function actionsLog() {
  return {
    info: (line) => info(line),
    warning: (line) => warning(line),
    async command(name, run2) {
      startGroup(`agate: ${name}`);
      const token = randomBytes(16).toString("hex");
      process.stdout.write(`::stop-commands::${token}
`);
      try {
        return await run2();
      } finally {
        process.stdout.write(`
::${token}::
`);
        endGroup();
      }
    },
    output: (chunk) => process.stdout.write(chunk)
  };
}
function annotate(error2) {
  for (const problem of error2.problems) {
    const text = problem.path ? `${problem.path}: ${problem.message}` : problem.message;
    if (problem.file) {
      error(`${text} (line ${problem.line}, column ${problem.column} of ${problem.file})`, {
        title: "agate config (organisation defaults)"
      });
      continue;
    }
    error(text, {
      title: "agate config",
      file: error2.file,
      startLine: problem.line,
      startColumn: problem.column
    });
  }
}
export {
  run
};
