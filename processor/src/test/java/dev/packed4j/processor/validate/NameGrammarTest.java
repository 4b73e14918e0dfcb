package dev.packed4j.processor.validate;

import static com.google.common.truth.Truth.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class NameGrammarTest {

  @ParameterizedTest
  @ValueSource(strings = {"MyAdd", "calculator.MyAdd", "relay.op._make.add", "_private", "a1.b2.c3", "x"})
  void wellFormedDottedNames(String name) {
    assertThat(NameGrammar.dotted(name)).isEmpty();
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      emptyValue = "",
      textBlock =
          """
          ''                 | it is empty                                   |
          .calculator.Add    | it starts with a dot                          | "calculator.Add"
          calculator.Add.    | it ends with a dot                            | "calculator.Add"
          calculator..Add    | it has two dots in a row at index 10          | "calculator.Add"
          calculator.My Add  | it contains a space at index 13               | "calculator.MyAdd"
          ' calculator.Add'  | it contains a space at index 0                | "calculator.Add"
          calculator.my-add  | it contains '-' at index 13                   | "calculator.my_add"
          calculator.2d      | the segment starting at index 11 starts with a digit |
          calculator/Add     | it contains '/' at index 10                   |
          calculator.Ädd     | it contains 'Ä' at index 11                   |
          """)
  void malformedDottedNamesSayWhyAndSuggestARepair(String name, String reason, String suggestion) {
    Optional<NameGrammar.Problem> problem = NameGrammar.dotted(name);
    assertThat(problem.map(NameGrammar.Problem::reason)).hasValue(reason);
    assertThat(problem.get().suggestion()).isEqualTo(Optional.ofNullable(suggestion));
  }

  @Test
  void controlCharactersAreNamedByCodePoint() {
    assertThat(NameGrammar.dotted("a\tb").map(NameGrammar.Problem::reason))
        .hasValue("it contains the whitespace character U+0009 at index 1");
  }

  @Test
  void identifiersHaveNoDots() {
    assertThat(NameGrammar.identifier("unsigned_big")).isEmpty();
    assertThat(NameGrammar.identifier("child.name").map(NameGrammar.Problem::reason))
        .hasValue("it contains a dot at index 5, and a field name is a single identifier");
  }
}
