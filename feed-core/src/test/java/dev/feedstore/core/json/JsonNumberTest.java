package dev.feedstore.core.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonNumberTest {

  private static JsonNumber number(String text) {
    return (JsonNumber) JsonReader.parse(text);
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
      "7, 7.0", "7, 7e0", "7, 70e-1", "7, 0.7e1", "7, 7.000E+0", "-0, 0", "-0.0, 0", "0e5, 0",
      "1500, 1.5e3", "0.001, 1e-3", "100, 1E2", "-12.5, -125e-1",
      "123456789012345678901234567890, 1.23456789012345678901234567890e29"})
  void equalValuesAreEqualHoweverWritten(String a, String b) {
    assertEquals(number(a), number(b));
    assertEquals(number(a).hashCode(), number(b).hashCode());
    assertEquals(0, number(a).compareTo(number(b)));
    assertEquals(number(a).toString(), number(b).toString());
  }

  @ParameterizedTest(name = "{0} < {1}")
  @CsvSource({
      "1, 2", "-2, -1", "-1, 0", "0, 0.0000001", "0.1, 0.11", "9, 10", "0.99999, 1", "-10, -9.5",
      "1e-999999999999999999, 1e-999999999999999998", "1e999999999999999998, 1e999999999999999999",
      "-1e999999999999999999, -1", "9007199254740992, 9007199254740993",
      "1.0000000000000000000000001, 1.0000000000000000000000002"})
  void numbersCompareByExactValue(String smaller, String larger) {
    assertTrue(number(smaller).compareTo(number(larger)) < 0);
    assertTrue(number(larger).compareTo(number(smaller)) > 0);
    assertNotEquals(number(smaller), number(larger));
  }

  @Test
  void sortingAgreesWithBigDecimal() {
    Random random = new Random(7);
    List<JsonNumber> numbers = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      String text = (random.nextBoolean() ? "-" : "") + random.nextInt(1000)
          + (random.nextBoolean() ? "." + random.nextInt(1000) : "")
          + (random.nextBoolean() ? "e" + (random.nextInt(20) - 10) : "");
      numbers.add(number(text));
    }
    Collections.shuffle(numbers, random);
    List<JsonNumber> byValue = new ArrayList<>(numbers);
    byValue.sort(null);
    for (int i = 1; i < byValue.size(); i++) {
      assertTrue(byValue.get(i - 1).toBigDecimal().compareTo(byValue.get(i).toBigDecimal()) <= 0);
    }
  }

  @ParameterizedTest(name = "{0} is written {1}")
  @CsvSource({
      "7.0, 7", "-0, 0", "1.5e3, 1500", "1e21, 1e21", "123456789012345678901, 123456789012345678901",
      "0.000001, 0.000001", "1e-7, 1e-7", "0.00000123, 0.00000123", "1.23e-7, 1.23e-7", "-12.50, -12.5",
      "1E+100, 1e100", "15e-31, 1.5e-30", "3.14159, 3.14159"})
  void canonicalTextIsShortAndPlainWhereReadable(String written, String canonical) {
    assertEquals(canonical, number(written).toString());
    assertEquals(number(written), number(canonical));
  }

  @Test
  void remembersWhetherItWasWrittenAsAnInteger() {
    assertTrue(number("7").writtenAsInteger());
    assertTrue(number("-0").writtenAsInteger());
    assertFalse(number("7.0").writtenAsInteger());
    assertFalse(number("7e0").writtenAsInteger());
    assertEquals(number("7"), number("7.0"), "but it is not part of the value");
  }

  @Test
  void longValueExactOnlyForIntegersWithinInt64() {
    assertEquals(OptionalLong.of(Long.MAX_VALUE), number("9223372036854775807").longValueExact());
    assertEquals(OptionalLong.of(Long.MIN_VALUE), number("-9223372036854775808").longValueExact());
    assertEquals(OptionalLong.empty(), number("9223372036854775808").longValueExact());
    assertEquals(OptionalLong.empty(), number("-9223372036854775809").longValueExact());
    assertEquals(OptionalLong.empty(), number("1.5").longValueExact());
    assertEquals(OptionalLong.of(1500), number("1.5e3").longValueExact());
    assertEquals(OptionalLong.of(0), number("-0").longValueExact());
  }

  @Test
  void madeFromJavaNumbersLikeTheirText() {
    assertEquals(number("12"), JsonNumber.of(12));
    assertEquals(number("-12.5"), JsonNumber.of(new BigDecimal("-12.50")));
    assertEquals(number("0.1"), JsonValue.of(0.1d));
    assertEquals(number("1e400"), JsonNumber.of(new BigDecimal("1E+400")));
  }
}
