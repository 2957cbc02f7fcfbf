package io.hourglass.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The package rules every Hourglass module outside the core keeps, as ArchUnit checks its tests run: it uses the core
 * only through its API package {@code io.hourglass} (never {@code io.hourglass.internal} nor
 * {@code io.hourglass.validation}, which the core's module descriptor does not export), and its own packages form no
 * cycle. Needs ArchUnit ({@code com.tngtech.archunit:archunit}) on the test class path; the test kit declares it
 * optional. Thread-safe (stateless).
 */
public final class ArchitectureRules {
    /** The core's packages that only the core may use. */
    public static final List<String> CORE_ONLY_PACKAGES =
            List.of("io.hourglass.internal..", "io.hourglass.validation..");

    private ArchitectureRules() {}

    /**
     * Checks the classes the current module compiled under the working directory, which is the module's directory when
     * Maven runs its tests: main and test classes ({@code target/classes}, {@code target/test-classes}) use only the
     * core's API; the main classes' packages form no cycle (a test may sit in any package it tests).
     *
     * @throws AssertionError naming each violation
     * @throws IllegalStateException when neither directory exists (run from somewhere else)
     */
    public static void checkThisModule() {
        checkThisModuleUsesOnlyTheCoresApi();
        if (Files.isDirectory(Path.of("target", "classes"))) {
            packagesFreeOfCycles().check(classesUnder(Path.of("target", "classes")));
        }
    }

    /**
     * The first half of {@link #checkThisModule()}: main and test classes use only the core's API.
     *
     * @throws AssertionError naming each violation
     * @throws IllegalStateException when neither {@code target/classes} nor {@code target/test-classes} exists
     */
    public static void checkThisModuleUsesOnlyTheCoresApi() {
        useOnlyTheCoresApi().check(classesUnder(Path.of("target", "classes"), Path.of("target", "test-classes")));
    }

    /** @return no class depends on a package only the core may use */
    public static ArchRule useOnlyTheCoresApi() {
        return noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(CORE_ONLY_PACKAGES.toArray(String[]::new))
                .because("the core exports only io.hourglass; its implementation may change under any caller");
    }

    /** @return the {@code io.hourglass} packages, one slice each, depend on each other in one direction only */
    public static ArchRule packagesFreeOfCycles() {
        return slices().assignedFrom(new SliceAssignment() {
                    @Override
                    public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                        String pkg = javaClass.getPackageName();
                        return pkg.startsWith("io.hourglass") ? SliceIdentifier.of(pkg) : SliceIdentifier.ignore();
                    }

                    @Override
                    public String getDescription() {
                        return "each io.hourglass package";
                    }
                })
                .should()
                .beFreeOfCycles();
    }

    private static JavaClasses classesUnder(Path... paths) {
        List<Path> dirs = Stream.of(paths).filter(Files::isDirectory).toList();
        if (dirs.isEmpty()) {
            throw new IllegalStateException("no " + List.of(paths) + " under "
                    + Path.of("").toAbsolutePath() + ": run from the module's directory");
        }
        return new ClassFileImporter().importPaths(dirs);
    }
}
