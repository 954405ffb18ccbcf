using SqlWaitProbe.Windows.Etw;
using SqlWaitProbe.Windows.Symbols;
using static SqlWaitProbe.Windows.Tests.SeedFrames;

namespace SqlWaitProbe.Windows.Tests;

public sealed class SymbolResolutionPlanTests
{
    private static EtwStackMapping Trace()
    {
        var source = new RecordedEtwStackSource(DateTime.UnixEpoch)
            .Add("sqlservr", 50, 0, Ntdll("RtlUserThreadStart"), Sqldk("SchedulerManager::ThreadEntryPoint"), Sqllang("CXStmtQuery::ErsqExecuteQuery"), BcryptPrimitives("SymCryptSha256AppendBlocks"))
            .Add("sqlservr", 30, 0, Ntdll("RtlUserThreadStart"), Sqldk("SOS_MemoryWorkSpace::FreePage"), Ntoskrnl("KiPageFault"))
            // Another process busier in one module than sqlservr is anywhere.
            .Add("backup", 120, 0, new EtwFrame(@"C:\Tools\backup.exe", null, 0x1000, false), new EtwFrame(@"C:\Windows\System32\zipfldr.dll", null, 0x2000, false))
            // Far below the floor: not worth a download.
            .Add("svchost", 1, 0, new EtwFrame(@"C:\Windows\System32\rpcrt4.dll", null, 0x3000, false));
        return EtwStackMapper.Map(source, DateTime.UnixEpoch, EtwSymbolMode.ModulesOnly);
    }

    [Fact]
    public void Server_modules_come_first_by_samples_then_the_busiest_others()
    {
        var modules = SymbolResolutionPlan.Choose(Trace(), "sqlservr");

        Assert.Equal(["ntdll", "sqldk", "bcryptprimitives", "sqllang", "ntoskrnl", "backup", "zipfldr"], modules);
    }

    [Fact]
    public void The_list_is_capped()
    {
        Assert.Equal(["ntdll", "sqldk", "bcryptprimitives"], SymbolResolutionPlan.Choose(Trace(), "sqlservr", maxModules: 3));
        Assert.Equal(["backup", "zipfldr"], SymbolResolutionPlan.Choose(Trace(), serverProcess: null, maxModules: 2));
    }

    [Fact]
    public void Progress_names_the_image_and_its_place()
    {
        var mapping = Trace();
        Assert.Equal("loading symbols for sqldk.dll (3/12)", SymbolResolutionPlan.ProgressMessage(mapping.ModuleFiles["sqldk"], 3, 12));
    }
}
