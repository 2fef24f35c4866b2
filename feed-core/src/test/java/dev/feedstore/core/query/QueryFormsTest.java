package dev.feedstore.core.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.feedstore.core.FeedId;
import dev.feedstore.core.Namespace;
import dev.feedstore.core.Scope;
import dev.feedstore.core.SpaceId;
import dev.feedstore.core.json.JsonValue;
import dev.feedstore.core.testing.TestBlocks;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The builder, the text form and the JSON form make the same queries, and each form reads back what it writes. */
class QueryFormsTest {
  private static final SpaceId WORK = SpaceId.of("work");

  private static final String EXAMPLE = "namespace:tasks key:/id where /assignee = \"ana\" and /done = false"
      + " order /createdAt desc limit 50";

  private static final String EXAMPLE_JSON = "{\"filter\":[{\"field\":\"/assignee\",\"op\":\"eq\",\"value\":\"ana\"},"
      + "{\"field\":\"/done\",\"op\":\"eq\",\"value\":false}],\"key\":\"/id\",\"limit\":50,"
      + "\"order\":{\"direction\":\"desc\",\"field\":\"/createdAt\"},\"scope\":{\"namespaces\":[\"tasks\"]},"
      + "\"space\":\"work\"}";

  @Test
  void theTextFormTheJsonFormAndTheBuilderMakeOneQuery() {
    LiveQuery built = LiveQuery.builder(WORK)
        .namespace("tasks")
        .key("/id")
        .where("/done", Operator.EQ, false)
        .where("/assignee", Operator.EQ, "ana")
        .orderBy("/createdAt", Order.Direction.DESC)
        .limit(50)
        .build();
    LiveQuery fromText = LiveQuery.parse(EXAMPLE, WORK);
    LiveQuery fromJson = LiveQuery.parse(EXAMPLE_JSON);
    assertEquals(built, fromText);
    assertEquals(built, fromJson);
    assertEquals(EXAMPLE_JSON, built.toJson());
    assertEquals("space:work " + EXAMPLE, built.toText());
    assertEquals(built.fingerprint(), fromJson.fingerprint());
  }

  @Test
  void theJsonFormAcceptsAnyLayoutAndWritesOneCanonicalText() {
    String loose = "{ \"limit\": 5e1, \"space\": \"work\", \"order\": {\"field\": \"/createdAt\", \"direction\": \"desc\"},"
        + " \"key\": \"/id\", \"scope\": {\"namespaces\": [\"tasks\", \"tasks\"], \"feeds\": []},"
        + " \"filter\": [{\"value\": false, \"op\": \"eq\", \"field\": \"/done\"},"
        + " {\"field\": \"/assignee\", \"op\": \"eq\", \"value\": \"ana\"},"
        + " {\"field\": \"/done\", \"op\": \"eq\", \"value\": false}] }";
    assertEquals(EXAMPLE_JSON, LiveQuery.parse(loose).toJson());
  }

  @Test
  void literalsAreNormalised() {
    FeedId feed = TestBlocks.feedId();
    LiveQuery a = LiveQuery.parse("space:w where /n = 7.0 and /k in [\"b\", 1, \"a\", 1.0] and feed = \""
        + feed.value().toLowerCase() + "\"");
    LiveQuery b = LiveQuery.parse("space:w where feed = \"" + feed.value() + "\" and /k in [1, \"a\", \"b\"] and /n = 7e0");
    assertEquals(a, b);
    assertEquals(a.toJson(), b.toJson());
    assertEquals("{\"filter\":[{\"field\":\"/k\",\"op\":\"in\",\"value\":[\"a\",\"b\",1]},"
        + "{\"field\":\"/n\",\"op\":\"eq\",\"value\":7},{\"field\":\"feed\",\"op\":\"eq\",\"value\":\"" + feed.value()
        + "\"}],\"space\":\"w\"}", a.toJson());
  }

  @Test
  void defaultsAreLeftOutOfTheCanonicalForm() {
    LiveQuery whole = LiveQuery.parse("{\"space\":\"w\",\"key\":\"feed\",\"filter\":[],\"order\":{\"field\":\"/a\"}}");
    assertEquals("{\"order\":{\"direction\":\"asc\",\"field\":\"/a\"},\"space\":\"w\"}", whole.toJson());
    assertEquals("space:w order /a asc", whole.toText());
    assertEquals(LiveQuery.builder(SpaceId.of("w")).orderBy("/a", Order.Direction.ASC).build(), whole);
  }

  @Test
  void feedsAndNamespacesAddToTheScopeGiven() {
    FeedId feed = TestBlocks.feedId();
    LiveQuery query = LiveQuery.builder(WORK).scope(Scope.namespace(Namespace.of("tasks"))).feed(feed).build();
    assertEquals(Scope.of(Set.of(feed), Set.of(Namespace.of("tasks"))), query.scope());
    assertEquals(Scope.WHOLE_SPACE, LiveQuery.builder(WORK).build().scope());
    assertEquals(Scope.namespace(Namespace.of("notes")),
        LiveQuery.builder(WORK).feed(feed).scope(Scope.namespace(Namespace.of("notes"))).build().scope(),
        "a scope given replaces what was added before it");
  }

  @Test
  void pointersTheTextCannotWriteBareAreQuoted() {
    LiveQuery query = LiveQuery.builder(WORK)
        .key("")
        .where("/a b", Operator.EQ, 1)
        .where("/x=y", Operator.EXISTS, true)
        .where("/é/😀", Operator.EXISTS, false)
        .select("/a,b", "/\"q\"", "/~0~1")
        .orderBy("/\t", Order.Direction.DESC)
        .build();
    String text = query.toText();
    assertEquals("space:work key:\"\" where \"/a b\" = 1 and \"/x=y\" exists and /é/😀 not exists"
        + " select \"/\\\"q\\\"\", \"/a,b\", /~0~1 order \"/\\t\" desc", text);
    assertEquals(query, LiveQuery.parse(text));
    assertEquals(query, LiveQuery.parse(query.toJson()));
  }

  @Test
  void keywordsAreCaseInsensitiveAndClausesMayComeInAnyOrder() {
    LiveQuery query = LiveQuery.parse("LIMIT 50 Order /createdAt DESC WHERE /assignee=\"ana\" AND /done=false"
        + " key:/id namespace:tasks space:work");
    assertEquals(LiveQuery.parse(EXAMPLE, WORK), query);
  }

  @Test
  void equalQueriesAreEqualAndOthersAreNot() {
    LiveQuery a = LiveQuery.parse("space:w where /a = 1 and /b = 2");
    assertEquals(a, LiveQuery.parse("space:w where /b = 2 and /a = 1 and /a = 1.0"));
    assertEquals(a.fingerprint(), LiveQuery.parse("space:w where /b = 2 and /a = 1").fingerprint());
    assertNotEquals(a, LiveQuery.parse("space:w where /a = 1 and /b = \"2\""));
    assertNotEquals(a.fingerprint(), LiveQuery.parse("space:w where /a = 1").fingerprint());
  }

  @Test
  void randomQueriesReadBackFromBothForms() {
    Random random = new Random(11);
    for (int i = 0; i < 500; i++) {
      LiveQuery query = randomQuery(random);
      LiveQuery fromText = LiveQuery.parse(query.toText());
      LiveQuery fromJson = LiveQuery.parse(query.toJson());
      assertEquals(query, fromText, query.toText());
      assertEquals(query, fromJson, query.toJson());
      assertEquals(query.toJson(), fromText.toJson());
      assertEquals(query.toText(), fromJson.toText());
    }
  }

  /** A random valid query over many shapes of fields and literals. */
  static LiveQuery randomQuery(Random random) {
    LiveQuery.Builder builder = LiveQuery.builder(SpaceId.of(pick(random, "work", "a.b:c-d_1")));
    int scope = random.nextInt(3);
    if (scope == 1) {
      builder.namespace(Namespace.of(pick(random, "tasks", "notes")));
    } else if (scope == 2) {
      builder.scope(Scope.of(Set.of(TestBlocks.feedId(), TestBlocks.feedId()), Set.of(Namespace.of("x"))));
    }
    if (random.nextBoolean()) {
      builder.key(pick(random, "/id", "", "/a b", "/k/0"));
    }
    for (int n = random.nextInt(4); n > 0; n--) {
      randomPredicate(random, builder, false);
    }
    if (random.nextInt(3) == 0) {
      randomPredicate(random, builder, true);
    }
    if (random.nextInt(3) == 0) {
      builder.select(pick(random, "/title", "/a,b", ""), pick(random, "/done", "/x y"));
    }
    if (random.nextBoolean()) {
      builder.orderBy(pick(random, "/createdAt", "receivedAt", "timestamp", "/\"x\"", "namespace"),
          random.nextBoolean() ? Order.Direction.ASC : Order.Direction.DESC);
    }
    if (random.nextBoolean()) {
      builder.limit(1 + random.nextInt(100));
    }
    return builder.build();
  }

  private static void randomPredicate(Random random, LiveQuery.Builder builder, boolean tombstone) {
    String field;
    Operator operator;
    Object literal;
    switch (random.nextInt(6)) {
      case 0 -> {
        field = pick(random, "/a", "/a/b", "/t ag", "");
        operator = pick(random, Operator.EQ, Operator.NE, Operator.CONTAINS);
        literal = pick(random, 1, -0.5, "x\"y", true, JsonValue.of(null), List.of(1, "2"), Map.of("k", List.of()));
      }
      case 1 -> {
        field = pick(random, "/n", "/😀");
        operator = pick(random, Operator.LT, Operator.LE, Operator.GT, Operator.GE);
        literal = pick(random, 3, new java.math.BigDecimal("1e-30"), "m", "\uFFFF");
      }
      case 2 -> {
        field = pick(random, "/a", "/b");
        operator = Operator.IN;
        literal = List.of(pick(random, 1, "a"), pick(random, 2.5, "b", false));
      }
      case 3 -> {
        field = pick(random, "/gone", "/x~1y");
        operator = Operator.EXISTS;
        literal = random.nextBoolean();
      }
      case 4 -> {
        field = pick(random, "receivedAt", "timestamp");
        operator = pick(random, Operator.GE, Operator.LT, Operator.EQ);
        literal = random.nextInt(5000);
      }
      default -> {
        field = pick(random, "namespace", "actor");
        operator = pick(random, Operator.EQ, Operator.CONTAINS, Operator.GT);
        literal = "tasks";
      }
    }
    if (tombstone) {
      builder.tombstone(field, operator, literal);
    } else {
      builder.where(field, operator, literal);
    }
  }

  @SafeVarargs
  private static <T> T pick(Random random, T... choices) {
    return choices[random.nextInt(choices.length)];
  }
}
