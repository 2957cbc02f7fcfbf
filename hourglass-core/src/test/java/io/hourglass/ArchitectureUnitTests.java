package io.hourglass;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The core's package rules: the API ({@code io.hourglass}) never reaches into the implementation
 * ({@code io.hourglass.internal}); the checks both share ({@code io.hourglass.validation}) depend on neither; the
 * implementation shows the class path nothing public but the service provider the builder loads; no package cycle. (The
 * other modules keep theirs with the test kit's {@code ArchitectureRules}.)
 */
class ArchitectureUnitTests {
    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPath(Path.of("target", "classes"));

    @Test
    void theApiNeverImportsTheImplementation() {
        noClasses()
                .that()
                .resideInAPackage("io.hourglass")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.hourglass.internal..")
                .because("the builder finds the implementation through java.util.ServiceLoader")
                .check(CORE);
    }

    @Test
    void theSharedChecksDependOnNeitherSide() {
        noClasses()
                .that()
                .resideInAPackage("io.hourglass.validation..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.hourglass", "io.hourglass.internal..")
                .check(CORE);
    }

    @Test
    void theImplementationIsPublicOnlyWhereTheServiceLoaderNeedsIt() {
        classes()
                .that()
                .resideInAPackage("io.hourglass.internal..")
                .and()
                .haveModifier(JavaModifier.PUBLIC)
                .should()
                .haveFullyQualifiedName("io.hourglass.internal.HourglassClientProvider")
                .check(CORE);
    }

    @Test
    void noPackageCycles() {
        slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                        return SliceIdentifier.of(javaClass.getPackageName());
                    }

                    @Override
                    public String getDescription() {
                        return "each package";
                    }
                })
                .should()
                .beFreeOfCycles()
                .check(CORE);
    }
}
